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
}

/** What a traveller's record becomes after its step ran with `result`. */
function movedOn(batch: StepBatch, result: StepResult) {
  const done = result.next === exitTarget;
  const passed = result.outcome && { stepId: batch.stepId, at: batch.now, outcome: result.outcome };
  return {
    $set: {
      state: done ? ('done' as const) : ('due' as const),
      at: done ? null : result.next,
      dueAt: done ? null : (result.dueAt ?? batch.now),
      listening: result.listening ?? null,
      waitingIn: result.waitingIn ?? null,
      claim: null,
      movedBy: batch.claim,
      runId: null,
      failures: 0,
      ...(done && { endReason: 'completed' as const, endedAt: batch.now }),
    },
    $inc: { seq: 1 },
    ...(passed && { $push: { passed } }),
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
 * others name their travellers.
 */
export async function advanceTravellers(
  models: Models,
  batch: StepBatch,
  results: Map<string, StepResult>,
  stats: StatsChanges,
): Promise<void> {
  const byResult = new Map<string, { result: StepResult; ids: string[] }>();
  const counts: TravellerCounts = new Map();
  for (const traveller of batch.travellers) {
    const result = results.get(traveller._id);
    if (!result) continue;
    const key = JSON.stringify(result);
    const same = byResult.get(key) ?? { result, ids: [] };
    same.ids.push(traveller._id);
    byResult.set(key, same);
    counts.set(traveller._id, countsOf(batch, traveller, result));
  }
  const wholeBatch = byResult.size === 1 && [...byResult.values()][0]!.ids.length === batch.travellers.length;
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [...byResult.values()].map(({ result, ids }) => ({
    updateMany: { filter: stepBatchFilter(batch, wholeBatch ? null : ids), update: movedOn(batch, result) },
  }));
  await moveCounted(models, batch.claim, operations, counts.size, counts, stats);
}
