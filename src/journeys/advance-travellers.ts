import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongoose';
import { inChunks, maxIdsPerIn } from '../infra/chunks.ts';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { Traveller } from './steps/step-context.ts';
import { goesOnNow, passedOf, settled, standingAfter, type Move } from './fold-record-only.ts';
import type { StatsChanges } from './journey-stats.ts';
import { countsOf, moveCounted, type TravellerCounts } from './counted-moves.ts';
import { claimedInRedis } from './traveller-claims.ts';

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

const claimedDue = { $in: ['due' as const, 'held' as const] };

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
 * The batch's travellers still at its step as claimed. Claimed in Redis (their record due): those of `ids` at the
 * step with the seq the claim read, due or held by a pause meanwhile (the move takes them on; the runner holds them
 * at their next step), not moved on by an event or left. Claimed by their record (running, their step chained or
 * retried): those still running under the batch's claim (on the {claim} index), all of them or those of `ids`. The
 * batch is every traveller of its claim at its step, on its version under its runId.
 */
export function stepBatchFilter(batch: StepBatch, ids: string[] | null, seq: number) {
  const first = batch.travellers[0]!;
  if (claimedInRedis(first))
    return { _id: { $in: ids ?? batch.travellers.map(({ _id }) => _id) }, state: claimedDue, at: batch.stepId, seq };
  const atStep = { claim: batch.claim, state: 'running' as const, at: batch.stepId, runId: first.runId };
  return ids ? { ...atStep, _id: { $in: ids } } : { ...atStep, journeyId: first.journeyId, version: first.version };
}

/**
 * Records the moves of the batch's travellers and moves them on: one update per distinct move, conditional on the
 * step run claimed (stepBatchFilter: a traveller that exited, was moved on by an event or was taken over meanwhile is
 * left as it is), counting only those it moved. A batch whose travellers share one move is one update of the batch's
 * travellers at the step; others name their travellers. Answers the travellers it moved whose next step is due now,
 * claimed by their record under this claim.
 */
export async function advanceTravellers(
  models: Models,
  batch: StepBatch,
  moves: Map<string, Move>,
  stats: StatsChanges,
): Promise<Traveller[]> {
  const byMove = new Map<string, { move: Move; seq: number; ids: string[]; runId: string | null }>();
  const counts: TravellerCounts = new Map();
  const goingOn: Traveller[] = [];
  // Claimed in Redis, a traveller's move is conditional on its seq: those of one move and one seq are one update.
  const bySeq = claimedInRedis(batch.travellers[0]!);
  for (const traveller of batch.travellers) {
    const move = moves.get(traveller._id);
    if (!move) continue;
    const key = bySeq ? `${traveller.seq}\n${JSON.stringify(move)}` : JSON.stringify(move);
    const same = byMove.get(key) ?? {
      move,
      seq: traveller.seq,
      ids: [],
      runId: goesOnNow(move.result) ? (move.runId ?? randomUUID()) : null,
    };
    same.ids.push(traveller._id);
    byMove.set(key, same);
    counts.set(traveller._id, countsOf(batch.stepId, traveller, move));
    if (same.runId) goingOn.push(onward(batch, traveller, move, same.runId));
  }
  const wholeBatch = byMove.size === 1 && [...byMove.values()][0]!.ids.length === batch.travellers.length;
  // Claimed in Redis, travellers are named in `$in`s of 100, which the local server matches faster than longer ones.
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [...byMove.values()].flatMap(
    ({ move, seq, ids, runId }) =>
      (bySeq ? [...inChunks(ids, maxIdsPerIn)] : [wholeBatch ? null : ids]).map((named) => ({
        updateMany: { filter: stepBatchFilter(batch, named, seq), update: movedOn(batch, move, runId) },
      })),
  );
  const moved = await moveCounted(models, batch.move, operations, counts.size, counts, stats);
  return moved === 'all' ? goingOn : goingOn.filter((traveller) => moved.has(traveller._id));
}
