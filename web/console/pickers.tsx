import { useId } from 'preact/hooks';
import type { EventTypeView } from '../../src/schemas/events.ts';
import { api } from './api.ts';
import { useProject } from './context.ts';
import { useLoad } from './hooks.ts';
import { FieldNotes, describedBy } from './fields.tsx';

/** Every zone this browser knows (IANA names), with the browser's own first. */
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const zones = [browserZone, ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== browserZone)];

/** A time zone picked from the list, with its error in words under it. */
export function ZoneSelect({
  label,
  value,
  onChange,
  hint,
  error,
}: {
  label: string;
  value: string;
  onChange(zone: string): void;
  hint?: string;
  error?: string;
}) {
  const id = useId();
  const options = value === '' || zones.includes(value) ? zones : [value, ...zones];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={describedBy(id, hint, error)}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        {options.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
            {zone === browserZone ? ' (this browser)' : ''}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The project's event types as suggestions for a field (its `list`): a typo shows as a name not suggested. */
export function EventTypeSuggestions({ id }: { id: string }) {
  const { base } = useProject();
  const types = useLoad(() => api<EventTypeView[]>('GET', `${base}/event-types`), [base]);
  return (
    <datalist id={id}>
      {(types.data ?? []).map((item) => (
        <option key={item.type} value={item.type} />
      ))}
    </datalist>
  );
}
