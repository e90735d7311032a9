import type { ComponentChildren } from 'preact';
import type { FlowNode } from './flow-layout.ts';
import type { StepDraft } from './step-draft.ts';

/** How a step is drawn in the flow: the screen gives the card, with its counts, errors and editor. */
export type DrawStep = (index: number) => ComponentChildren;

function stepName(steps: StepDraft[], id: string): string {
  const index = steps.findIndex((step) => step.id === id);
  return index === -1 ? `${id} (no such step)` : `step ${index + 1} (${id})`;
}

/** The flow top to bottom; the sides of a branch, split or wait for an event side by side (stacked on a phone). */
export function FlowView({ nodes, steps, drawStep }: { nodes: FlowNode[]; steps: StepDraft[]; drawStep: DrawStep }) {
  return (
    <ol class="flow">
      {nodes.map((node) => {
        if (node.kind === 'step') return <li key={`step-${node.index}`}>{drawStep(node.index)}</li>;
        if (node.kind === 'exit')
          return (
            <li key="exit" class="flow-end">
              Exit the journey
            </li>
          );
        if (node.kind === 'goto')
          return (
            <li key={`goto-${node.target}`} class="flow-end">
              Goes on at {stepName(steps, node.target)}
            </li>
          );
        return (
          <li key={`sides-${node.from}`}>
            <ul class="sides" aria-label={`The ways on from step ${node.from + 1}`}>
              {node.sides.map((side, at) => (
                <li key={at} class="side">
                  <p class="side-label">{side.label}</p>
                  {side.nodes.length > 0 && <FlowView nodes={side.nodes} steps={steps} drawStep={drawStep} />}
                  {(side.nodes.length === 0 || side.nodes.at(-1)!.kind === 'step') && (
                    <p class="flow-end">Goes on below</p>
                  )}
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}
