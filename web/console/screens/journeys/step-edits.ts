import type { StepType } from '../../../../src/schemas/journey-steps.ts';
import { newPushDraft } from './push-draft.ts';
import { exitTarget } from './flow-layout.ts';
import { routesItself, type StepDraft } from './step-draft.ts';

/** The start of a new step's id, by type: ids name steps in the counts and the traveller lookup. */
const idStarts: Record<StepType, string> = {
  wait: 'wait',
  push: 'push',
  waitForEvent: 'wait-for-event',
  branch: 'branch',
  split: 'split',
  setTags: 'set-tags',
  webhook: 'webhook',
};

export function newStep(type: StepType, steps: StepDraft[]): StepDraft {
  const taken = new Set(steps.map((step) => step.id));
  let number = 1;
  while (taken.has(`${idStarts[type]}-${number}`)) number += 1;
  const common = { id: `${idStarts[type]}-${number}`, next: '' };
  switch (type) {
    case 'wait':
      return { ...common, type, mode: 'delay', delay: { amount: '1', unit: 'hours' }, time: '09:00' };
    case 'waitForEvent':
      return {
        ...common,
        type,
        event: '',
        timeout: { amount: '1', unit: 'days' },
        sameAs: '',
        where: [],
        onEvent: exitTarget,
        onTimeout: exitTarget,
      };
    case 'branch':
      return { ...common, type, match: 'all', conditions: [], onTrue: exitTarget, onFalse: exitTarget };
    case 'split':
      return {
        ...common,
        type,
        paths: [
          { name: 'A', percent: '50', next: exitTarget },
          { name: 'B', percent: '50', next: exitTarget },
        ],
      };
    case 'push':
      return { ...common, type, push: newPushDraft() };
    case 'setTags':
      return { ...common, type, tags: [{ key: '', value: '', remove: false }] };
    default:
      return { ...common, type: 'webhook' };
  }
}

/** Every target naming `from` names `to` instead: a renamed or removed step leaves no target pointing nowhere. */
function retarget(step: StepDraft, from: string, to: string): StepDraft {
  const swap = (target: string) => (target === from ? to : target);
  const moved = { ...step, next: swap(step.next) } as StepDraft;
  if (moved.type === 'branch')
    return {
      ...moved,
      onTrue: swap(moved.onTrue),
      onFalse: swap(moved.onFalse),
      conditions: moved.conditions.map((condition) =>
        condition.kind === 'clicked' ? { ...condition, step: swap(condition.step) } : condition,
      ),
    };
  if (moved.type === 'waitForEvent')
    return { ...moved, onEvent: swap(moved.onEvent), onTimeout: swap(moved.onTimeout) };
  if (moved.type === 'split')
    return { ...moved, paths: moved.paths.map((path) => ({ ...path, next: swap(path.next) })) };
  return moved;
}

export function replaceStep(steps: StepDraft[], index: number, next: StepDraft): StepDraft[] {
  const old = steps[index]!.id;
  const renamed = old !== next.id && old !== '' && next.id !== '';
  return steps.map((step, at) => (at === index ? next : renamed ? retarget(step, old, next.id) : step));
}

/** Targets of a removed step lead where it led (a step that routes by itself: to the exit). */
export function removeStep(steps: StepDraft[], index: number): StepDraft[] {
  const removed = steps[index]!;
  const onward = routesItself(removed) ? exitTarget : removed.next || (steps[index + 1]?.id ?? exitTarget);
  return steps.filter((_, at) => at !== index).map((step) => retarget(step, removed.id, onward));
}

/**
 * The step at `index` swapped with the one before (-1) or after (1). Targets name steps by id, so each still leads to
 * the step it named; a step without a `next` of its own goes on to whichever step now follows it in the list.
 */
export function moveStep(steps: StepDraft[], index: number, by: -1 | 1): StepDraft[] {
  const other = index + by;
  if (other < 0 || other >= steps.length) return steps;
  const moved = [...steps];
  [moved[index], moved[other]] = [moved[other]!, moved[index]!];
  return moved;
}
