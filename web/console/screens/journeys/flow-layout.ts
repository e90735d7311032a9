import { durationWords, secondsOf } from './duration.ts';
import { exitTarget, type StepDraft } from './step-draft.ts';

/** One way out of a step: where it leads, and when (a branch's "If yes", a split path's name). */
export interface Edge {
  label: string;
  target: string;
}

/**
 * The journey drawn top to bottom: each step once, where the flow first reaches it; a step that routes has its sides
 * side by side, and the flow goes on below them where the sides meet again.
 */
export type FlowNode =
  | { kind: 'step'; index: number }
  | { kind: 'sides'; from: number; sides: Array<Edge & { nodes: FlowNode[] }> }
  | { kind: 'goto'; target: string }
  | { kind: 'exit' };

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

export function layoutFlow(steps: StepDraft[]): { flow: FlowNode[]; unreached: FlowNode[][] } {
  const indexById = new Map(steps.map((step, index) => [step.id, index] as const));
  const reachable = (from: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [from];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      const index = indexById.get(id);
      if (seen.has(id) || index === undefined) continue;
      seen.add(id);
      queue.push(...edgesOf(steps, index).map((edge) => edge.target));
    }
    return seen;
  };
  // Where every side leads: the first step of the list that all of them reach.
  const meeting = (edges: Edge[]): string | undefined => {
    const sets = edges.map((edge) => reachable(edge.target));
    return steps.find((step) => sets.every((set) => set.has(step.id)))?.id;
  };
  const drawn = new Set<number>();
  const chain = (start: string, stops: ReadonlySet<string>): FlowNode[] => {
    const nodes: FlowNode[] = [];
    for (let id = start; ; ) {
      if (stops.has(id)) return nodes;
      const index = indexById.get(id);
      if (index === undefined) return [...nodes, id === exitTarget ? { kind: 'exit' } : { kind: 'goto', target: id }];
      if (drawn.has(index)) return [...nodes, { kind: 'goto', target: id }];
      drawn.add(index);
      nodes.push({ kind: 'step', index });
      const edges = edgesOf(steps, index);
      if (edges.length === 1) {
        id = edges[0]!.target;
        continue;
      }
      const meet = meeting(edges);
      const inner = new Set(stops);
      if (meet !== undefined) inner.add(meet);
      nodes.push({
        kind: 'sides',
        from: index,
        sides: edges.map((edge) => ({ ...edge, nodes: chain(edge.target, inner) })),
      });
      if (meet === undefined) return nodes;
      id = meet;
    }
  };
  const flow = steps.length === 0 ? [] : chain(steps[0]!.id, new Set());
  const unreached: FlowNode[][] = [];
  steps.forEach((step, index) => {
    if (!drawn.has(index)) unreached.push(chain(step.id, new Set()));
  });
  return { flow, unreached };
}
