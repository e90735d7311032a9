import type { JourneyBody, JourneyView } from '../../../../src/schemas/journey.ts';
import type { TemplateView } from '../../../../src/schemas/template.ts';
import { api, listAll } from '../../api.ts';
import { useProject } from '../../context.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { DataTable } from '../../layout.tsx';
import { href } from '../../route.ts';
import { ConfirmButton } from '../../save-controls.tsx';
import { ErrorMessage, LoadedView } from '../../ui.tsx';
import { draftOf } from './step-draft.ts';
import { stepSummary, templateNamer } from './step-words.ts';

/** The fields a journey is written with, from what reading it answered: PUT replaces the whole journey. */
function bodyOf(journey: JourneyView): JourneyBody {
  const { name, status, entry, audience, reentry, exit, steps } = journey;
  return { name, status, entry, audience, reentry, exit, steps } as JourneyBody;
}

/** Every journey with its steps in a line, paused, resumed or deleted from here, each opening in the builder. */
export function JourneyList() {
  const { base } = useProject();
  const list = useLoad(() => listAll<JourneyView>(`${base}/journeys`), [base]);
  const templates = useLoad(() => listAll<TemplateView>(`${base}/templates`), [base]);
  const templateName = templateNamer(templates.data);
  const toggle = useAction(async (journey: JourneyView) => {
    const status = journey.status === 'active' ? 'paused' : 'active';
    await api('PUT', `${base}/journeys/${journey.id}`, { body: { ...bodyOf(journey), status } });
    list.reload();
  });
  const remove = useAction(async (id: string) => {
    await api('DELETE', `${base}/journeys/${id}`);
    list.reload();
  });
  return (
    <section aria-labelledby="journeys-list">
      <h2 id="journeys-list">Journeys</h2>
      <p>
        <a class="button" href={href('journeys', 'new')}>
          New journey
        </a>
      </p>
      <ErrorMessage error={toggle.error ?? remove.error} />
      <LoadedView loaded={list} empty="No journey yet.">
        {(journeys) => (
          <DataTable
            caption="Journeys"
            rows={journeys}
            rowKey={(journey) => journey.id}
            columns={[
              { label: 'Name', cell: (journey) => <a href={href('journeys', journey.id)}>{journey.name}</a> },
              { label: 'Enters on', cell: (journey) => <code class="name">{journey.entry.event}</code> },
              {
                label: 'Steps',
                cell: (journey) => journey.steps.map((step) => stepSummary(draftOf(step), templateName)).join(' → '),
              },
              { label: 'State', cell: (journey) => journey.status },
              {
                label: 'Actions',
                cell: (journey) => (
                  <div class="actions">
                    <button type="button" class="secondary" onClick={() => toggle.run(journey)}>
                      {journey.status === 'active' ? `Pause ${journey.name}` : `Resume ${journey.name}`}
                    </button>
                    <ConfirmButton
                      label={`Delete ${journey.name}`}
                      question="Delete this journey? Every traveller on it exits."
                      onConfirm={() => void remove.run(journey.id)}
                    />
                  </div>
                ),
              },
            ]}
          />
        )}
      </LoadedView>
    </section>
  );
}
