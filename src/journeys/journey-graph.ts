import type { ErrorDetail } from '../errors.ts';
import { fieldsOf } from '../schemas/validation.ts';

export const exitTarget = 'exit';

/** An edge of the journey's flow: where a step may send its traveller, and the field that says so. */
export interface StepEdge {
  target: string;
  path: string;
}

const pausingTypes = new Set(['wait', 'waitForEvent']);
const routingTypes = new Set(['branch', 'split', 'waitForEvent']);

/** The step after `index` in the list: its default next. */
export function defaultNext(steps: ReadonlyArray<{ id: string }>, index: number): string {
  return steps[index + 1]?.id ?? exitTarget;
}

/** Every edge out of a step, as the body holds it (fields of the wrong type are skipped: the schema names them). */
export function stepEdges(steps: ReadonlyArray<unknown>, index: number): StepEdge[] {
  const step = fieldsOf(steps[index]);
  const at = `/steps/${index}`;
  const named = (field: string): StepEdge[] =>
    typeof step[field] === 'string' ? [{ target: step[field] as string, path: `${at}/${field}` }] : [];
  if (step.type === 'branch') return [...named('onTrue'), ...named('onFalse')];
  if (step.type === 'waitForEvent') return [...named('onEvent'), ...named('onTimeout')];
  if (step.type === 'split')
    return (Array.isArray(step.paths) ? step.paths : []).flatMap((path, pathIndex) => {
      const next = fieldsOf(path).next;
      return typeof next === 'string' ? [{ target: next, path: `${at}/paths/${pathIndex}/next` }] : [];
    });
  if (typeof step.next === 'string') return named('next');
  const following = fieldsOf(steps[index + 1]).id;
  return [{ target: typeof following === 'string' ? following : exitTarget, path: `${at}/next` }];
}

/**
 * Targets that name no step, a `next` on a step that routes by its own fields, and loops that no wait breaks: a
 * traveller in one would run steps without end.
 */
export function journeyGraphErrors(steps: ReadonlyArray<unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const ids = steps.map((step) => fieldsOf(step).id);
  const indexById = new Map<string, number>();
  ids.forEach((id, index) => {
    if (typeof id !== 'string') return;
    if (id === exitTarget)
      details.push({ path: `/steps/${index}/id`, message: `is the journey's end, which no step may be named` });
    else if (indexById.has(id)) details.push({ path: `/steps/${index}/id`, message: `repeats the step id "${id}"` });
    else indexById.set(id, index);
  });
  steps.forEach((step, index) => {
    const { type, next } = fieldsOf(step);
    if (routingTypes.has(String(type)) && next !== undefined)
      details.push({
        path: `/steps/${index}/next`,
        message: `is not used by a ${String(type)} step, which names its own targets`,
      });
    for (const edge of stepEdges(steps, index))
      if (edge.target !== exitTarget && !indexById.has(edge.target))
        details.push({ path: edge.path, message: `names no step of this journey (a step id or "exit")` });
  });
  if (details.length > 0) return details;
  // Depth-first search over the steps that run at once; a back edge closes a loop with no wait in it.
  const state = new Map<number, 'open' | 'done'>();
  const visit = (index: number): ErrorDetail | null => {
    state.set(index, 'open');
    for (const edge of pausingTypes.has(String(fieldsOf(steps[index]).type)) ? [] : stepEdges(steps, index)) {
      const target = indexById.get(edge.target);
      if (target === undefined) continue;
      if (state.get(target) === 'open')
        return { path: edge.path, message: 'closes a loop with no wait or waitForEvent step in it' };
      const found = state.has(target) ? null : visit(target);
      if (found) return found;
    }
    state.set(index, 'done');
    return null;
  };
  for (let index = 0; index < steps.length; index += 1) {
    const found = state.has(index) ? null : visit(index);
    if (found) return [found];
  }
  return [];
}
