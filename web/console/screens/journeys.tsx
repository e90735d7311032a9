import { useState } from 'preact/hooks';
import type { JourneyBody, JourneyView } from '../../../src/schemas/journey.ts';
import type { TemplateView } from '../../../src/schemas/template.ts';
import { api, listAll } from '../api.ts';
import { useAction, useLoad } from '../hooks.ts';
import { useProject } from '../context.ts';
import { EventTypeSuggestions } from '../pickers.tsx';
import { ConfirmButton } from '../save-controls.tsx';
import { ErrorMessage, LoadedView } from '../ui.tsx';
import { Field, Select } from '../fields.tsx';
import { unchanged, useUnsavedEdits } from '../unsaved-edits.ts';

/** The fields a journey is written with, from what reading it answered: PUT replaces the whole journey. */
function bodyOf(journey: JourneyView): JourneyBody {
  const { name, status, entry, audience, reentry, exit, steps } = journey;
  return { name, status, entry, audience, reentry, exit, steps } as JourneyBody;
}

/** A step as the list shows it: its type, and what a push step says (its template named by `templateName`). */
const stepSummary = (step: JourneyView['steps'][number], templateName: (id: string) => string) => {
  const fields = step as Record<string, unknown>;
  if (step.type === 'wait')
    return fields.seconds === undefined ? `wait until ${fields.untilLocalTime}` : `wait ${fields.seconds} s`;
  if (step.type === 'push')
    return typeof fields.templateId === 'string' ? templateName(fields.templateId) : `push “${fields.body}”`;
  return step.type;
};

const emptyDraft = { name: '', event: '', delaySeconds: '0', templateId: '', body: '' };

export function JourneysScreen() {
  const { base } = useProject();
  const list = useLoad(() => listAll<JourneyView>(`${base}/journeys`), [base]);
  const templates = useLoad(() => listAll<TemplateView>(`${base}/templates`), [base]);
  const [draft, setDraft] = useState(emptyDraft);
  // Its name once the templates are read; a deleted one says so, for such a step sends nothing.
  const templateName = (id: string) => {
    if (!templates.data) return `template ${id}`;
    const template = templates.data.find((candidate) => candidate.id === id);
    return template ? `template “${template.name}”` : `template ${id} (deleted: sends nothing)`;
  };
  useUnsavedEdits(() => !unchanged(draft, emptyDraft));

  const create = useAction(async () => {
    const content = draft.templateId === '' ? { body: draft.body } : { templateId: draft.templateId };
    const created = await api<JourneyView>('POST', `${base}/journeys`, {
      body: { name: draft.name, trigger: { event: draft.event }, delaySeconds: Number(draft.delaySeconds), ...content },
    });
    // A cleared form: pressing Enter again must not create the same journey twice.
    setDraft(emptyDraft);
    list.reload();
    templates.reload();
    return created;
  });
  const toggle = useAction(async (journey: JourneyView) => {
    const status = journey.status === 'active' ? 'paused' : 'active';
    await api('PUT', `${base}/journeys/${journey.id}`, { body: { ...bodyOf(journey), status } });
    list.reload();
    templates.reload();
  });
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/journeys/${id}`);
    list.reload();
    templates.reload();
  });

  return (
    <div class="columns">
      <section aria-labelledby="journeys-list">
        <h2 id="journeys-list">Journeys</h2>
        <ErrorMessage error={toggle.error ?? remove.error} />
        <LoadedView loaded={list} empty="No journey yet.">
          {(journeys) => (
            <table class="list">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">When</th>
                  <th scope="col">Steps</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {journeys.map((journey) => (
                  <tr key={journey.id}>
                    <td>{journey.name}</td>
                    <td>
                      <code>{journey.entry.event}</code>
                    </td>
                    <td>{journey.steps.map((step) => stepSummary(step, templateName)).join(' → ')}</td>
                    <td>{journey.status}</td>
                    <td class="actions">
                      <button type="button" class="secondary" onClick={() => toggle.run(journey)}>
                        {journey.status === 'active' ? `Pause ${journey.name}` : `Resume ${journey.name}`}
                      </button>
                      <ConfirmButton
                        label={`Delete ${journey.name}`}
                        question="Delete this journey? Every traveller on it exits."
                        onConfirm={() => void remove.run(journey.id)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </LoadedView>
      </section>
      <form
        aria-labelledby="journey-new"
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <h2 id="journey-new">New journey</h2>
        <Field
          label="Name"
          name="journey-name"
          required
          value={draft.name}
          onInput={(name) => setDraft({ ...draft, name })}
        />
        <Field
          label="Trigger event type"
          name="journey-event"
          required
          value={draft.event}
          onInput={(event) => setDraft({ ...draft, event })}
          list="journey-event-types"
        />
        <EventTypeSuggestions id="journey-event-types" />
        <Field
          label="Delay (seconds)"
          name="journey-delay"
          type="number"
          value={draft.delaySeconds}
          onInput={(delaySeconds) => setDraft({ ...draft, delaySeconds })}
        />
        <Select
          label="Template"
          name="journey-template"
          value={draft.templateId}
          options={[
            ['', 'Inline body'] as const,
            ...(templates.data ?? []).map((template) => [template.id, template.name] as const),
          ]}
          onChange={(templateId) => setDraft({ ...draft, templateId })}
        />
        {draft.templateId === '' && (
          <Field
            label="Body"
            name="journey-body"
            multiline
            required
            value={draft.body}
            onInput={(body) => setDraft({ ...draft, body })}
            hint="Liquid, with {{ entry_event.data.x }} from the triggering event."
          />
        )}
        <button type="submit" disabled={create.running}>
          Create journey
        </button>
        {create.result && (
          <p role="status" class="notice">
            Created journey <strong>{create.result.name}</strong>.
          </p>
        )}
        <ErrorMessage error={create.error} />
      </form>
    </div>
  );
}
