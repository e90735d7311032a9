import { describe, expect, it } from 'vitest';
import { type Edge, layoutFlow } from '../../web/console/screens/journeys/flow-layout.ts';

/** Steps by id, each with its ways out: one unlabelled target, or labelled sides. */
function flowOf(steps: Record<string, string | Edge[]>) {
  const ids = Object.keys(steps);
  const edges = (index: number): Edge[] => {
    const out = steps[ids[index]!]!;
    return typeof out === 'string' ? [{ label: '', target: out }] : out;
  };
  return layoutFlow(ids, edges);
}

describe("the journey builder's flow", () => {
  it('draws a list of steps top to bottom, ending at the exit', () => {
    expect(flowOf({ a: 'b', b: 'exit' })).toEqual({
      flow: [{ kind: 'step', index: 0 }, { kind: 'step', index: 1 }, { kind: 'exit' }],
      unreached: [],
    });
  });

  it("draws a branch's sides side by side and goes on below them where they meet", () => {
    const yes = { label: 'If yes', target: 'yes' };
    const no = { label: 'If no', target: 'no' };
    const { flow } = flowOf({ check: [yes, no], yes: 'after', no: 'after', after: 'exit' });
    expect(flow).toEqual([
      { kind: 'step', index: 0 },
      {
        kind: 'sides',
        from: 0,
        sides: [
          { ...yes, nodes: [{ kind: 'step', index: 1 }] },
          { ...no, nodes: [{ kind: 'step', index: 2 }] },
        ],
      },
      { kind: 'step', index: 3 },
      { kind: 'exit' },
    ]);
  });

  it('says where a loop goes back to, ends sides that never meet at the exit, and lists steps no step reaches', () => {
    const heard = { label: 'If purchase happens', target: 'exit' };
    const timedOut = { label: 'If not within 1 day', target: 'first' };
    const { flow, unreached } = flowOf({ first: 'buy', buy: [heard, timedOut], orphan: 'exit' });
    expect(flow).toEqual([
      { kind: 'step', index: 0 },
      { kind: 'step', index: 1 },
      {
        kind: 'sides',
        from: 1,
        sides: [
          { ...heard, nodes: [{ kind: 'exit' }] },
          { ...timedOut, nodes: [{ kind: 'goto', target: 'first' }] },
        ],
      },
    ]);
    expect(unreached).toEqual([[{ kind: 'step', index: 2 }, { kind: 'exit' }]]);
  });
});
