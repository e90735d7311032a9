import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { Traveller } from './steps/step-context.ts';
import { goesOnNow, passedOf, settled, standingAfter, type Move } from './fold-record-only.ts';
import type { StatsChanges } from './journey-stats.ts';
import { countsOf, moveCounted, type TravellerCounts } from './counted-moves.ts';

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

/** What a step run sets on the travellers it moves: its claim and runId on those going on now, none on the others. */
const stepRunFields = (batch: StepBatch, runId: string | null) => ({
  claim: runId ? batch.claim : null,
  movedBy: batch.move,
  runId,
  failures: 0,
});

/** The update of a traveller's record for its move; `runId` is its next step's when it goes on now. */
function movedOn(batch: StepBatch, move: Move, runId: string | null) {
  const passed = passedOf(move, batch.now);
  return {
    $set: { ...standingAfter(move.result, batch.now, runId ? batch.lease : null), ...stepRunFields(batch, runId) },
    $inc: { seq: move.steps.length },
    ...(passed.length > 0 && { $push: { passed: { $each: passed } } }),
  };
}

/** The in-memory record of a traveller that goes on at once, as movedOn writes it. */
const onward = (batch: StepBatch, traveller: Traveller, move: Move, runId: string): Traveller => ({
  ...settled(traveller, move, batch.now, batch.lease),
  ...stepRunFields(batch, runId),
});

/**
 * The batch's travellers still claimed by it and running (on the {claim} index): all of them, or those of `ids`. The
 * batch is every traveller of its claim at its step, on its version under its runId.
 */
export function stepBatchFilter(batch: StepBatch, ids: string[] | null) {
  const first = batch.travellers[0]!;
  const atStep = { claim: batch.claim, state: 'running' as const, at: batch.stepId, runId: first.runId };
  return ids ? { ...atStep, _id: { $in: ids } } : { ...atStep, journeyId: first.journeyId, version: first.version };
}

/**
 * Records the moves of the batch's travellers and moves them on: one range update per distinct move, conditional
 * on the claim and the running state (a traveller that exited or was taken over meanwhile is left as it is), counting
 * only those it moved. A batch whose travellers share one move is one update of the claim's travellers at the step;
 * others name their travellers. Answers the travellers it moved whose next step is due now, still claimed.
 */
export async function advanceTravellers(
  models: Models,
  batch: StepBatch,
  moves: Map<string, Move>,
  stats: StatsChanges,
): Promise<Traveller[]> {
  const byMove = new Map<string, { move: Move; ids: string[]; runId: string | null }>();
  const counts: TravellerCounts = new Map();
  const goingOn: Traveller[] = [];
  for (const traveller of batch.travellers) {
    const move = moves.get(traveller._id);
    if (!move) continue;
    const key = JSON.stringify(move);
    const same = byMove.get(key) ?? { move, ids: [], runId: goesOnNow(move.result) ? randomUUID() : null };
    same.ids.push(traveller._id);
    byMove.set(key, same);
    counts.set(traveller._id, countsOf(batch.stepId, traveller, move));
    if (same.runId) goingOn.push(onward(batch, traveller, move, same.runId));
  }
  const wholeBatch = byMove.size === 1 && [...byMove.values()][0]!.ids.length === batch.travellers.length;
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [...byMove.values()].map(({ move, ids, runId }) => ({
    updateMany: { filter: stepBatchFilter(batch, wholeBatch ? null : ids), update: movedOn(batch, move, runId) },
  }));
  const moved = await moveCounted(models, batch.move, operations, counts.size, counts, stats);
  return moved === 'all' ? goingOn : goingOn.filter((traveller) => moved.has(traveller._id));
}
