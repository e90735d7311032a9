/** Where a traveller leaves the journey (CONTRACTS §18). */
export const exitTarget = 'exit';

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

/** The flow of steps given by their ids, in the list's order, and the ways out of each. */
export function layoutFlow(
  ids: string[],
  edgesOf: (index: number) => Edge[],
): { flow: FlowNode[]; unreached: FlowNode[][] } {
  const indexById = new Map(ids.map((id, index) => [id, index] as const));
  const reachable = (from: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [from];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      const index = indexById.get(id);
      if (seen.has(id) || index === undefined) continue;
      seen.add(id);
      queue.push(...edgesOf(index).map((edge) => edge.target));
    }
    return seen;
  };
  // Where every side leads: the first step of the list that all of them reach.
  const meeting = (edges: Edge[]): string | undefined => {
    const sets = edges.map((edge) => reachable(edge.target));
    return ids.find((id) => sets.every((set) => set.has(id)));
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
      const edges = edgesOf(index);
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
  const flow = ids.length === 0 ? [] : chain(ids[0]!, new Set());
  const unreached: FlowNode[][] = [];
  ids.forEach((id, index) => {
    if (!drawn.has(index)) unreached.push(chain(id, new Set()));
  });
  return { flow, unreached };
}
