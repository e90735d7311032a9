import { useState } from 'preact/hooks';
import type { ProjectView } from '../../../src/schemas/project.ts';
import type { UpdateProjectSettingsBody } from '../../../src/schemas/project-settings.ts';
import { api } from '../api.ts';
import { useAction } from '../hooks.ts';
import { Field } from '../fields.tsx';
import { ErrorMessage } from '../ui.tsx';

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
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Delivery settings</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <Field
          label="Default time zone"
          value={draft.defaultTimezone}
          onInput={set('defaultTimezone')}
          hint="IANA name, e.g. Asia/Seoul: for devices that report no zone."
        />
        <fieldset>
          <legend>Quiet hours (each device's local time; blank: off)</legend>
          <Field label="Quiet from" value={draft.quietStart} onInput={set('quietStart')} hint="HH:MM" />
          <Field label="Quiet until" value={draft.quietEnd} onInput={set('quietEnd')} hint="HH:MM" />
        </fieldset>
        <fieldset>
          <legend>Frequency cap (blank: off)</legend>
          <Field label="At most pushes" type="number" value={draft.capMax} onInput={set('capMax')} hint="1 to 1000" />
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
      <ErrorMessage error={save.error} />
      {save.result && !save.running && <p role="status">Saved.</p>}
    </section>
  );
}
