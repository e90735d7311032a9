import { durationWords, secondsOf } from './duration.ts';
import { type Edge, exitTarget } from './flow-layout.ts';
import type { StepDraft } from './step-draft.ts';

/** The ways out of a step, in words: a branch's yes and no, a wait's event and its time-out, a split's paths. */
export function edgesOf(steps: StepDraft[], index: number): Edge[] {
  const step = steps[index]!;
  if (step.type === 'branch')
    return [
      { label: 'If yes', target: step.onTrue },
      { label: 'If no', target: step.onFalse },
    ];
  if (step.type === 'waitForEvent') {
    const timeout = secondsOf(step.timeout);
    return [
      { label: `If ${step.event || 'the event'} happens`, target: step.onEvent },
      {
        label: typeof timeout === 'number' ? `If not within ${durationWords(timeout)}` : 'If it does not happen',
        target: step.onTimeout,
      },
    ];
  }
  if (step.type === 'split')
    return step.paths.map((path) => ({ label: `${path.name || 'Path'} (${path.percent}%)`, target: path.next }));
  return [{ label: '', target: step.next || (steps[index + 1]?.id ?? exitTarget) }];
}
