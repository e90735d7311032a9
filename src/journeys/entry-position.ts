import type { PassedStep } from '../models/journey-traveller.ts';
import type { JourneyVersion } from './active-journeys.ts';
import { exitTarget } from './journey-graph.ts';
import { nextOf } from './steps/step-context.ts';

/** Where a new traveller's record starts, and what that adds to its journey's counts. */
export interface EntryPosition {
  at: string;
  seq: number;
  dueAt: Date;
  waitingIn: string | null;
  passed: PassedStep[];
  counts: Array<[field: string, by: number]>;
}

/**
 * A journey that opens with a wait of seconds: the traveller is written already waiting in it, its next step due at
 * the wait's end, as the wait step would have moved it (its passed step, `entered` and `waiting` on it), so that its
 * entry is one write, not an insert, a claim and a move. Any other first step (a wait until a local time needs the
 * traveller's zone) is due at once and runs in the step runner.
 */
export function entryPosition(journey: Pick<JourneyVersion, 'steps'>, now: Date): EntryPosition {
  const first = journey.steps[0]!;
  const atOnce: EntryPosition = { at: first.id, seq: 0, dueAt: now, waitingIn: null, passed: [], counts: [] };
  if (first.type !== 'wait' || first.seconds === undefined) return atOnce;
  const next = nextOf(journey, first);
  if (next === exitTarget) return atOnce;
  const dueAt = new Date(now.getTime() + first.seconds * 1000);
  return {
    at: next,
    seq: 1,
    dueAt,
    waitingIn: first.id,
    passed: [{ stepId: first.id, at: now, outcome: { until: dueAt.toISOString() } }],
    counts: [
      [`${first.id}.entered`, 1],
      [`${first.id}.waiting`, 1],
    ],
  };
}
