import { useEffect, useState } from 'preact/hooks';
import type { JourneyView } from '../../../../src/schemas/journey.ts';
import type { StepType } from '../../../../src/schemas/journey-steps.ts';
import type { SegmentView } from '../../../../src/schemas/segment.ts';
import type { TemplateView } from '../../../../src/schemas/template.ts';
import { api, listAll } from '../../api.ts';
import { useProject } from '../../context.ts';
import { Select } from '../../fields.tsx';
import { useAction, useInterval, useLoad } from '../../hooks.ts';
import { ActionBar, Section } from '../../layout.tsx';
import { EventTypeSuggestions, TagSuggestions } from '../../pickers.tsx';
import { href } from '../../route.ts';
import { ErrorMessage, LoadedView } from '../../ui.tsx';
import { unchanged, useUnsavedEdits } from '../../unsaved-edits.ts';
import { segmentEventTypes } from '../segments/condition-editor.tsx';
import { JourneyCounts } from './journey-counts.tsx';
import { journeyBodyOf, journeyDraftOf, newJourneyDraft, type JourneyDraft } from './journey-draft.ts';
import { placeJourneyErrors } from './journey-errors.ts';
import { JourneySettings } from './journey-settings.tsx';
import { StepsFlow } from './steps-flow.tsx';
import { stepTypeWords } from './step-words.ts';
import { newStep } from './step-edits.ts';
import { TravellerLookup } from './traveller-lookup.tsx';

/** How often a journey's counts are read again while its page is open. */
const refreshMs = 5000;

/** A journey at its own address (or a new one): its settings, its steps as a flow with their counts, its travellers. */
export function JourneyPage({ id, onSaved }: { id: string | null; onSaved(message: string): void }) {
  const { base } = useProject();
  const path = id === null ? null : `${base}/journeys/${encodeURIComponent(id)}`;
  const journey = useLoad(path === null ? null : () => api<JourneyView>('GET', path), [path]);
  const templates = useLoad(() => listAll<TemplateView>(`${base}/templates`), [base]);
  const segments = useLoad(() => listAll<SegmentView>(`${base}/segments`), [base]);
  const [draft, setDraft] = useState<JourneyDraft>(newJourneyDraft);
  const [saved, setSaved] = useState<JourneyDraft>(newJourneyDraft);
  const [editing, setEditing] = useState<number | null>(null);
  const [shownOnce, setShownOnce] = useState(id === null);
  const [addType, setAddType] = useState<StepType>('push');
  const show = (view: JourneyView) => {
    const shown = journeyDraftOf(view);
    setDraft(shown);
    setSaved(shown);
    setEditing(null);
  };
  // The definition is taken from the first read only: the reads every few seconds refresh the counts, not the edits.
  useEffect(() => {
    if (journey.data === undefined || shownOnce) return;
    show(journey.data);
    setShownOnce(true);
  }, [journey.data]);
  useInterval(() => path !== null && journey.reload(), refreshMs);
  useUnsavedEdits(() => !unchanged(journeyBodyOf(draft), journeyBodyOf(saved)));
  const set = (changes: Partial<JourneyDraft>) => setDraft((current) => ({ ...current, ...changes }));

  const save = useAction(async () => {
    const body = journeyBodyOf(draft);
    const answer = await api<JourneyView>(path === null ? 'POST' : 'PUT', path ?? `${base}/journeys`, { body });
    show(answer);
    onSaved(`Saved journey ${answer.name} (version ${answer.version}).`);
    if (path === null) location.hash = href('journeys', answer.id);
    else journey.reload();
    return answer;
  });
  const errors = placeJourneyErrors(save.error);
  const stepsWithErrors = errors.steps.size;
  const placed = save.error !== undefined && errors.rest === undefined;

  return (
    <article class="journey-page">
      <p class="actions">
        <a href={href('journeys')}>Back to the journeys</a>
      </p>
      <h2>{id === null ? 'New journey' : saved.name || 'Journey'}</h2>
      {path !== null && (
        <LoadedView loaded={journey}>{(view) => view.stats && <JourneyCounts stats={view.stats} />}</LoadedView>
      )}
      <EventTypeSuggestions id={segmentEventTypes} />
      <TagSuggestions />
      <form
        class="journey-builder"
        aria-label="Journey builder"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <JourneySettings draft={draft} set={set} segments={segments} errors={errors} />
        <Section title="Steps">
          <StepsFlow
            steps={draft.steps}
            setSteps={(steps) => set({ steps })}
            stats={journey.data?.stats}
            errors={errors.steps}
            editing={editing}
            setEditing={setEditing}
            templates={templates}
          />
          <div class="filters add-step">
            <Select
              label="New step"
              name="journey-add-type"
              value={addType}
              options={Object.entries(stepTypeWords) as Array<[StepType, string]>}
              onChange={setAddType}
            />
            <button
              type="button"
              class="secondary"
              onClick={() => {
                set({ steps: [...draft.steps, newStep(addType, draft.steps)] });
                setEditing(draft.steps.length);
              }}
            >
              Add the step
            </button>
          </div>
        </Section>
        <ActionBar>
          <button type="submit" disabled={save.running}>
            Save journey
          </button>
          {placed && (
            <p class="field-error" role="alert">
              Not saved:{' '}
              {stepsWithErrors === 0
                ? 'a field needs a change'
                : stepsWithErrors === 1
                  ? 'a step needs a change'
                  : `${stepsWithErrors} steps need a change`}
              , marked in red.
            </p>
          )}
          <ErrorMessage error={errors.rest} />
        </ActionBar>
      </form>
      {path !== null && <TravellerLookup path={path} />}
    </article>
  );
}
