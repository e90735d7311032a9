import type { JourneyStats } from '../../../../src/schemas/journey.ts';
import type { TemplateView } from '../../../../src/schemas/template.ts';
import type { Loaded } from '../../hooks.ts';
import { Empty } from '../../ui.tsx';
import { layoutFlow } from './flow-layout.ts';
import { edgesOf } from './step-edges.ts';
import { FlowView } from './flow-view.tsx';
import type { StepError } from './journey-errors.ts';
import { StepCard } from './step-card.tsx';
import type { StepDraft } from './step-draft.ts';
import { moveStep, removeStep, replaceStep } from './step-edits.ts';
import { templateNamer } from './step-words.ts';

/** The journey's steps as a flow, each drawn as its card: one step's editor open at a time. */
export function StepsFlow({
  steps,
  setSteps,
  stats,
  errors,
  editing,
  setEditing,
  templates,
}: {
  steps: StepDraft[];
  setSteps(steps: StepDraft[]): void;
  stats: JourneyStats | undefined;
  /** By step id, as the steps were when saved: a step moved since keeps its own. */
  errors: Map<string, StepError[]>;
  editing: number | null;
  setEditing(index: number | null): void;
  templates: Loaded<TemplateView[]>;
}) {
  if (steps.length === 0) return <Empty>No step yet: add the first one below.</Empty>;
  const { flow, unreached } = layoutFlow(
    steps.map((step) => step.id),
    (index) => edgesOf(steps, index),
  );
  const templateName = templateNamer(templates.data);
  const drawStep = (index: number) => (
    <StepCard
      step={steps[index]!}
      index={index}
      steps={steps}
      stats={stats?.steps[steps[index]!.id]}
      errors={errors.get(steps[index]!.id) ?? []}
      editing={editing === index}
      templates={templates}
      templateName={templateName}
      onEdit={() => setEditing(index)}
      onDone={() => setEditing(null)}
      onChange={(next) => setSteps(replaceStep(steps, index, next))}
      onRemove={() => {
        setSteps(removeStep(steps, index));
        setEditing(null);
      }}
      onMove={(by) => {
        setSteps(moveStep(steps, index, by));
        if (editing === index) setEditing(index + by);
        else if (editing === index + by) setEditing(index);
      }}
    />
  );
  return (
    <>
      <FlowView nodes={flow} steps={steps} drawStep={drawStep} />
      {unreached.length > 0 && (
        <div class="unreached">
          <p class="muted">Not reached from the first step: no step leads here.</p>
          {unreached.map((nodes, at) => (
            <FlowView key={at} nodes={nodes} steps={steps} drawStep={drawStep} />
          ))}
        </div>
      )}
    </>
  );
}
