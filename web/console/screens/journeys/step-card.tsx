import type { JourneyStats } from '../../../../src/schemas/journey.ts';
import type { TemplateView } from '../../../../src/schemas/template.ts';
import type { Loaded } from '../../hooks.ts';
import { ConfirmButton } from '../../save-controls.tsx';
import type { StepError } from './journey-errors.ts';
import { StepEditor } from './step-editor.tsx';
import type { StepDraft } from './step-draft.ts';
import { stepSummary, stepTypeWords } from './step-words.ts';

type StepStats = JourneyStats['steps'][string];

const countWords = [
  ['entered', 'entered'],
  ['waiting', 'here now'],
  ['sent', 'sent'],
  ['failed', 'failed'],
  ['clicked', 'clicked'],
  ['conversions', 'conversions'],
] as const;

/** A step's live counts (CONTRACTS §18), those its type has. */
function StepCounts({ stats }: { stats: StepStats | undefined }) {
  if (stats === undefined) return null;
  return (
    <dl class="step-counts" data-testid="step-counts">
      {countWords.map(([field, words]) =>
        stats[field] === undefined ? null : (
          <div key={field} data-count={field}>
            <dt>{words}</dt>
            <dd>{stats[field]}</dd>
          </div>
        ),
      )}
    </dl>
  );
}

export interface StepCardProps {
  step: StepDraft;
  index: number;
  steps: StepDraft[];
  stats: StepStats | undefined;
  errors: StepError[];
  editing: boolean;
  templates: Loaded<TemplateView[]>;
  templateName(id: string): string;
  onEdit(): void;
  onDone(): void;
  onChange(next: StepDraft): void;
  onRemove(): void;
  onMove(by: -1 | 1): void;
}

/** One step in the flow: what it does in words, its counts, the API's errors on it, and its editor when opened. */
export function StepCard(props: StepCardProps) {
  const { step, index, errors, editing } = props;
  const headingId = `step-${index}-heading`;
  return (
    <article
      class={errors.length > 0 ? 'step-card invalid' : 'step-card'}
      aria-labelledby={headingId}
      data-step={step.id}
    >
      <h3 id={headingId}>
        <span class="step-number">Step {index + 1}</span> {stepTypeWords[step.type]}{' '}
        <code class="step-id">{step.id}</code>
      </h3>
      <p class="step-summary">{stepSummary(step, props.templateName)}</p>
      <StepCounts stats={props.stats} />
      {errors.length > 0 && (
        <ul class="field-error step-errors" data-testid="step-errors">
          {errors.map((error) => (
            <li key={error.sentence}>{error.sentence}</li>
          ))}
        </ul>
      )}
      {editing ? (
        <StepEditor {...props} onChange={props.onChange} onDone={props.onDone} />
      ) : (
        <div class="actions">
          <button type="button" class="secondary" onClick={props.onEdit}>
            Edit step {index + 1}
          </button>
          {index > 0 && (
            <button
              type="button"
              class="secondary"
              aria-label={`Move step ${index + 1} up`}
              onClick={() => props.onMove(-1)}
            >
              Up
            </button>
          )}
          {index < props.steps.length - 1 && (
            <button
              type="button"
              class="secondary"
              aria-label={`Move step ${index + 1} down`}
              onClick={() => props.onMove(1)}
            >
              Down
            </button>
          )}
          <ConfirmButton
            label={`Remove step ${index + 1}`}
            question="Remove it? The steps that led to it will lead where it led."
            onConfirm={props.onRemove}
          />
        </div>
      )}
    </article>
  );
}
