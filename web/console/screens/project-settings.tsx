import { useState } from 'preact/hooks';
import type { ProjectView } from '../../../src/schemas/project.ts';
import type { UpdateProjectSettingsBody } from '../../../src/schemas/project-settings.ts';
import { api } from '../api.ts';
import { useAction } from '../hooks.ts';
import { Field, FormError } from '../fields.tsx';
import { ZoneSelect } from '../pickers.tsx';
import { placeErrors, type FieldRule } from '../field-errors.ts';

interface Draft {
  defaultTimezone: string;
  quietStart: string;
  quietEnd: string;
  capMax: string;
  capWindowHours: string;
}

function draftOf(project: ProjectView): Draft {
  return {
    defaultTimezone: project.defaultTimezone,
    quietStart: project.quietHours?.start ?? '',
    quietEnd: project.quietHours?.end ?? '',
    capMax: project.frequencyCap ? String(project.frequencyCap.max) : '',
    capWindowHours: project.frequencyCap ? String(project.frequencyCap.windowHours) : '',
  };
}

/** Blank quiet hours or cap fields turn them off; anything else goes to the API as typed, which names what is wrong. */
function bodyOf(draft: Draft): UpdateProjectSettingsBody {
  const quietOff = draft.quietStart === '' && draft.quietEnd === '';
  const capOff = draft.capMax === '' && draft.capWindowHours === '';
  const whole = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    defaultTimezone: draft.defaultTimezone.trim(),
    quietHours: quietOff ? null : { start: draft.quietStart.trim(), end: draft.quietEnd.trim() },
    frequencyCap: capOff ? null : { max: whole(draft.capMax), windowHours: whole(draft.capWindowHours) },
  };
}

const errorRules: FieldRule<'defaultTimezone' | 'quietHours' | 'frequencyCap'>[] = [
  { path: '/defaultTimezone', field: 'defaultTimezone', sentence: 'Choose a time zone from the list.' },
  {
    path: '/quietHours',
    field: 'quietHours',
    sentence: 'Give both the time quiet hours start and the time they end, or leave both blank to turn them off.',
  },
  {
    path: '/frequencyCap',
    field: 'frequencyCap',
    sentence: 'Give from 1 to 1000 pushes per 1 to 720 hours, or leave both blank to turn the cap off.',
  },
];

/** When pushes may reach devices (CONTRACTS §15): the default time zone, quiet hours and the frequency cap. */
export function ProjectSettingsForm({
  base,
  project,
  onSaved,
}: {
  base: string;
  project: ProjectView;
  onSaved(): void;
}) {
  const [draft, setDraft] = useState(() => draftOf(project));
  const set = (field: keyof Draft) => (value: string) => setDraft({ ...draft, [field]: value });
  const save = useAction(async () => {
    const saved = await api<ProjectView>('PATCH', `${base}/settings`, { body: bodyOf(draft) });
    onSaved();
    return saved;
  });
  const { fields, unplaced } = placeErrors(save.error, errorRules);
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Delivery settings</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <ZoneSelect
          label="Default time zone"
          value={draft.defaultTimezone}
          onChange={set('defaultTimezone')}
          hint="For devices that report no zone of their own."
          error={fields.defaultTimezone}
        />
        <fieldset>
          <legend>Quiet hours (each device's local time; blank: off)</legend>
          <Field
            label="Quiet from"
            type="time"
            value={draft.quietStart}
            onInput={set('quietStart')}
            error={fields.quietHours}
          />
          <Field label="Quiet until" type="time" value={draft.quietEnd} onInput={set('quietEnd')} />
        </fieldset>
        <fieldset>
          <legend>Frequency cap (blank: off)</legend>
          <Field
            label="At most pushes"
            type="number"
            value={draft.capMax}
            onInput={set('capMax')}
            hint="1 to 1000"
            error={fields.frequencyCap}
          />
          <Field
            label="Per hours"
            type="number"
            value={draft.capWindowHours}
            onInput={set('capWindowHours')}
            hint="1 to 720"
          />
        </fieldset>
        <button type="submit" disabled={save.running}>
          Save delivery settings
        </button>
      </form>
      <FormError error={save.error} unplaced={unplaced} what="settings" />
      {save.result && !save.running && <p role="status">Saved.</p>}
    </section>
  );
}
