import { useId } from 'preact/hooks';
import type { EventTypeView } from '../../src/schemas/events.ts';
import type { TagSuggestion } from '../../src/schemas/tags.ts';
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

/** The id of the list of tag keys that TagSuggestions renders. */
export const tagKeysList = 'tag-suggestions-keys';

/** The id of the list of a tag key's values that TagSuggestions renders (any key spelt as an id's characters). */
export const tagValuesList = (key: string) =>
  `tag-suggestions-values-${[...key].map((char) => (/\w/.test(char) ? char : `-${char.codePointAt(0)!.toString(16)}`)).join('')}`;

/**
 * The tag keys and values seen on the project's newest devices, as suggestions for the fields whose `list` is
 * tagKeysList or tagValuesList(key): a key or value nobody has shows as one not suggested. Rendered once per screen.
 */
export function TagSuggestions() {
  const { base } = useProject();
  const tags = useLoad(() => api<TagSuggestion[]>('GET', `${base}/tag-suggestions`), [base]);
  return (
    <>
      <datalist id={tagKeysList}>
        {(tags.data ?? []).map((tag) => (
          <option key={tag.key} value={tag.key}>
            {`on ${tag.devices} recent devices`}
          </option>
        ))}
      </datalist>
      {(tags.data ?? []).map((tag) => (
        <datalist key={tag.key} id={tagValuesList(tag.key)}>
          {tag.values.map((value) => (
            <option key={String(value)} value={String(value)} />
          ))}
        </datalist>
      ))}
    </>
  );
}
