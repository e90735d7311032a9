import type { JourneyStep, StepOf, StepType } from '../schemas/journey-steps.ts';
import { exitTarget } from './journey-graph.ts';
import type { StepContext, StepResult, StepRun, Traveller } from './steps/step-context.ts';
import { stepRuns } from './steps/step-runs.ts';

/** A traveller's run of one step, and of the steps it went through at once after it, written as one move. */
export interface Move {
  /** The steps it ran, in order, with what each recorded (none while a waitForEvent step starts to wait). */
  steps: Array<{ stepId: string; outcome: StepResult['outcome'] }>;
  /** Where the last of them sends it. */
  result: StepResult;
  /** The runId its next step runs under when it goes on now, one already keying that step's writes; else a new one. */
  runId?: string;
}

/**
 * Steps that change nothing but the traveller's own record: run again after a lost write, they come out the same (a
 * split draws from the traveller's seq), so they need no write of their own before they run. A push, setTags or
 * webhook step is keyed by the runId of its traveller's step run, and so runs only from a stored record or a claimed
 * one (foldAfterTimeout).
 */
const recordOnly = new Set<StepType>(['wait', 'waitForEvent', 'branch', 'split']);

export const isRecordOnly = (step: JourneyStep) => recordOnly.has(step.type);

/** Whether the traveller's next step is due now: it then runs in the same run (a loop holds a wait, CONTRACTS §18). */
export const goesOnNow = (result: StepResult) =>
  result.next !== exitTarget && result.dueAt === undefined && result.listening === undefined;

/** The passed steps a move records: those of its steps with an outcome. */
export const passedOf = (move: Move, now: Date) =>
  move.steps.flatMap(({ stepId, outcome }) => (outcome ? [{ stepId, at: now, outcome }] : []));

/** The traveller as the move so far would store it, at its next step. */
const movedSoFar = (traveller: Traveller, move: Move, now: Date): Traveller => ({
  ...traveller,
  at: move.result.next,
  listening: null,
  waitingIn: null,
  seq: traveller.seq + move.steps.length,
  passed: [...traveller.passed, ...passedOf(move, now)],
});

/** The step's run for the travellers at it when it is record-only; none of them ran when it is not, or it failed. */
function runRecordOnly(context: StepContext, step: JourneyStep, travellers: Traveller[]) {
  if (!recordOnly.has(step.type)) return Promise.resolve(new Map<string, StepResult>());
  const run = stepRuns[step.type] as StepRun<StepType>;
  return run(context, step as StepOf<StepType>, travellers).catch(() => new Map<string, StepResult>());
}

/**
 * The batch's results as moves, each taken on through the record-only steps that follow at once, run in memory for
 * the travellers at each together: one write then records them all, where each used to cost its own. Those a
 * following step fails for stop before it, and run it from their stored record.
 */
export async function foldRecordOnly(
  context: StepContext,
  travellers: Traveller[],
  results: Map<string, StepResult>,
  stepId: string,
): Promise<Map<string, Move>> {
  const moves = new Map<string, Move>();
  for (const [id, result] of results) moves.set(id, { steps: [{ stepId, outcome: result.outcome }], result });
  let going = travellers.filter((traveller) => moves.has(traveller._id));
  for (let depth = 0; depth < context.version.steps.length && going.length > 0; depth++) {
    const atNext = new Map<string, Traveller[]>();
    for (const traveller of going) {
      const move = moves.get(traveller._id)!;
      const next = context.version.steps.find((step) => step.id === move.result.next);
      if (!goesOnNow(move.result) || !next || !recordOnly.has(next.type)) continue;
      atNext.set(next.id, [...(atNext.get(next.id) ?? []), movedSoFar(traveller, move, context.now)]);
    }
    going = [];
    for (const [nextId, group] of atNext) {
      const step = context.version.steps.find((candidate) => candidate.id === nextId)!;
      const ran = await runRecordOnly(context, step, group);
      for (const [id, result] of ran) {
        const move = moves.get(id)!;
        moves.set(id, { steps: [...move.steps, { stepId: nextId, outcome: result.outcome }], result });
      }
      going.push(...travellers.filter((traveller) => ran.has(traveller._id)));
    }
  }
  return moves;
}

/**
 * Travellers not yet stored, at the step: its moves when it is record-only, each taken on through the record-only
 * steps after it, as the step runner would run them; none for those it did not run (they are stored at the step).
 */
export async function recordOnlyMoves(context: StepContext, step: JourneyStep, travellers: Traveller[]) {
  const results = await runRecordOnly(context, step, travellers);
  return foldRecordOnly(context, travellers, results, step.id);
}

/** Whether the move ends the visit now: at the exit, with no wait before it (a last wait keeps it travelling). */
export const leavesNow = (result: StepResult) => result.next === exitTarget && result.dueAt === undefined;

/**
 * Where a traveller stands after a move (CONTRACTS §18's states): gone; going on now, claimed until `lease`; or due at
 * its next step (a wait's end, a waitForEvent's timeout, or now), the exit too when a wait ends the journey.
 */
export function standingAfter(result: StepResult, now: Date, lease: Date | null) {
  const done = leavesNow(result);
  return {
    state: done ? ('done' as const) : lease ? ('running' as const) : ('due' as const),
    at: done ? null : result.next,
    dueAt: done ? null : (lease ?? result.dueAt ?? now),
    listening: result.listening ?? null,
    waitingIn: result.waitingIn ?? null,
    ...(done && { endReason: 'completed' as const, endedAt: now }),
  };
}

/** The traveller's record after a move: due, waiting or gone, or going on now claimed until `lease`. */
export function settled(traveller: Traveller, move: Move, now: Date, lease: Date | null = null): Traveller {
  return { ...movedSoFar(traveller, move, now), ...standingAfter(move.result, now, lease) };
}
