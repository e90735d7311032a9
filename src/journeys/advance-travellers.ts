import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { StepResult, Traveller } from './steps/step-context.ts';
import { exitTarget } from './journey-graph.ts';
import type { StatsChanges } from './journey-stats.ts';
import { moveCounted, type TravellerCounts } from './counted-moves.ts';

export interface StepBatch {
  claim: string;
  stepId: string;
  /** The claimed travellers at the step, all on one version and one runId. */
  travellers: Traveller[];
  now: Date;
  /** Until when the travellers going on at once stay claimed for their next step. */
  lease: Date;
  /** This step run's writes, as `movedBy` of the travellers they move. */
  move: string;
}

/**
 * Whether the traveller's next step is due now: then it stays claimed, under a new runId, and runs in this run, rather
 * than waiting for a claim to read it again. A loop holds a wait (CONTRACTS §18), so such a chain ends.
 */
const goesOnNow = (result: StepResult) =>
  result.next !== exitTarget && result.dueAt === undefined && result.listening === undefined;

/** What a traveller's record becomes after its step ran with `result`; `runId` is its next step's when it goes on now. */
function movedOn(batch: StepBatch, result: StepResult, runId: string | null) {
  const done = result.next === exitTarget;
  const passed = result.outcome && { stepId: batch.stepId, at: batch.now, outcome: result.outcome };
  return {
    $set: {
      state: done ? ('done' as const) : runId ? ('running' as const) : ('due' as const),
      at: done ? null : result.next,
      dueAt: done ? null : runId ? batch.lease : (result.dueAt ?? batch.now),
      listening: result.listening ?? null,
      waitingIn: result.waitingIn ?? null,
      claim: runId ? batch.claim : null,
      movedBy: batch.move,
      runId,
      failures: 0,
      ...(done && { endReason: 'completed' as const, endedAt: batch.now }),
    },
    $inc: { seq: 1 },
    ...(passed && { $push: { passed } }),
  };
}

/** The in-memory record of a traveller that goes on at once, as movedOn writes it. */
function onward(batch: StepBatch, traveller: Traveller, result: StepResult, runId: string): Traveller {
  const passed = result.outcome && { stepId: batch.stepId, at: batch.now, outcome: result.outcome };
  return {
    ...traveller,
    state: 'running',
    at: result.next,
    dueAt: batch.lease,
    listening: null,
    waitingIn: null,
    runId,
    movedBy: batch.move,
    failures: 0,
    seq: traveller.seq + 1,
    passed: passed ? [...traveller.passed, passed] : traveller.passed,
  };
}

/**
 * The batch's travellers still claimed by it and running (on the {claim} index): all of them, or those of `ids`. The
 * batch is every traveller of its claim at its step, on its version under its runId.
 */
export function stepBatchFilter(batch: StepBatch, ids: string[] | null) {
  const first = batch.travellers[0]!;
  const atStep = { claim: batch.claim, state: 'running' as const, at: batch.stepId, runId: first.runId };
  return ids ? { ...atStep, _id: { $in: ids } } : { ...atStep, journeyId: first.journeyId, version: first.version };
}

/** What a traveller's move from the batch's step with `result` adds to the counts. */
function countsOf(batch: StepBatch, traveller: Traveller, result: StepResult): Array<[string, number]> {
  const counts: Array<[string, number]> = [];
  if (traveller.waitingIn) counts.push([`${traveller.waitingIn}.waiting`, -1]);
  if (traveller.listening?.stepId !== batch.stepId) counts.push([`${batch.stepId}.entered`, 1]);
  if (result.waitingIn) counts.push([`${result.waitingIn}.waiting`, 1]);
  if (result.next === exitTarget) counts.push(['completed', 1]);
  return counts;
}

/**
 * Records the step run of the batch's travellers and moves them on: one range update per distinct result, conditional
 * on the claim and the running state (a traveller that exited or was taken over meanwhile is left as it is), counting
 * only those it moved. A batch whose travellers share one result is one update of the claim's travellers at the step;
 * others name their travellers. Answers the travellers it moved whose next step is due now, still claimed.
 */
export async function advanceTravellers(
  models: Models,
  batch: StepBatch,
  results: Map<string, StepResult>,
  stats: StatsChanges,
): Promise<Traveller[]> {
  const byResult = new Map<string, { result: StepResult; ids: string[]; runId: string | null }>();
  const counts: TravellerCounts = new Map();
  const goingOn: Traveller[] = [];
  for (const traveller of batch.travellers) {
    const result = results.get(traveller._id);
    if (!result) continue;
    const key = JSON.stringify(result);
    const same = byResult.get(key) ?? { result, ids: [], runId: goesOnNow(result) ? randomUUID() : null };
    same.ids.push(traveller._id);
    byResult.set(key, same);
    counts.set(traveller._id, countsOf(batch, traveller, result));
    if (same.runId) goingOn.push(onward(batch, traveller, result, same.runId));
  }
  const wholeBatch = byResult.size === 1 && [...byResult.values()][0]!.ids.length === batch.travellers.length;
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [...byResult.values()].map(
    ({ result, ids, runId }) => ({
      updateMany: { filter: stepBatchFilter(batch, wholeBatch ? null : ids), update: movedOn(batch, result, runId) },
    }),
  );
  const moved = await moveCounted(models, batch.move, operations, counts.size, counts, stats);
  return moved === 'all' ? goingOn : goingOn.filter((traveller) => moved.has(traveller._id));
}
