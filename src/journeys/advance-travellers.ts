import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { Traveller } from './steps/step-context.ts';
import { goesOnNow, passedOf, type Move } from './fold-record-only.ts';
import { exitTarget } from './journey-graph.ts';
import type { StatsChanges } from './journey-stats.ts';
import { moveCounted, type TravellerCounts } from './counted-moves.ts';

export interface StepBatch {
  stepId: string;
  /** The claimed travellers at the step, all on one version and one runId. */
  travellers: Traveller[];
  now: Date;
  /** This step run's writes, as `movedBy` of the travellers they move. */
  move: string;
}

/**
 * What a traveller's record becomes after its move; `runId` is its next step's when it goes on now (due now, and run
 * in this run, its claim held in Redis): stored, so that a run taken over sends nothing twice.
 */
function movedOn(batch: StepBatch, { steps, result }: Move, runId: string | null) {
  const done = result.next === exitTarget;
  const passed = passedOf({ steps, result }, batch.now);
  return {
    $set: {
      state: done ? ('done' as const) : ('due' as const),
      at: done ? null : result.next,
      dueAt: done ? null : (result.dueAt ?? batch.now),
      listening: result.listening ?? null,
      waitingIn: result.waitingIn ?? null,
      movedBy: batch.move,
      runId,
      failures: 0,
      ...(done && { endReason: 'completed' as const, endedAt: batch.now }),
    },
    $inc: { seq: steps.length },
    ...(passed.length > 0 && { $push: { passed: { $each: passed } } }),
  };
}

/** The in-memory record of a traveller that goes on at once, as movedOn writes it. */
function onward(batch: StepBatch, traveller: Traveller, move: Move, runId: string): Traveller {
  return {
    ...traveller,
    state: 'due',
    at: move.result.next,
    dueAt: batch.now,
    listening: null,
    waitingIn: null,
    runId,
    movedBy: batch.move,
    failures: 0,
    seq: traveller.seq + move.steps.length,
    passed: [...traveller.passed, ...passedOf(move, batch.now)],
  };
}

/**
 * Those of `ids` still at the batch's step as claimed (by _id): not left meanwhile, nor moved on by an event or a run
 * that took the claim over. A pause meanwhile holds them, and the move takes them on; the runner holds them again.
 */
export const stepBatchFilter = (batch: StepBatch, ids: string[], seq: number) => ({
  _id: { $in: ids },
  state: { $in: ['due' as const, 'held' as const] },
  at: batch.stepId,
  seq,
});

/** What a traveller's move adds to the counts: each step it entered (a waitForEvent it listened at it had). */
function countsOf(batch: StepBatch, traveller: Traveller, { steps, result }: Move): Array<[string, number]> {
  const counts: Array<[string, number]> = [];
  if (traveller.waitingIn) counts.push([`${traveller.waitingIn}.waiting`, -1]);
  if (traveller.listening?.stepId !== batch.stepId) counts.push([`${batch.stepId}.entered`, 1]);
  for (const { stepId } of steps.slice(1)) counts.push([`${stepId}.entered`, 1]);
  if (result.waitingIn) counts.push([`${result.waitingIn}.waiting`, 1]);
  if (result.next === exitTarget) counts.push(['completed', 1]);
  return counts;
}

/**
 * Records the moves of the batch's travellers and moves them on: one update per distinct move (and seq, the same for
 * travellers that came the same way), conditional on the step run claimed (a traveller that exited or was moved on
 * meanwhile is left as it is), counting only those it moved. Answers the travellers it moved whose next step is due
 * now, for this run to go on with.
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
  for (const traveller of batch.travellers) {
    const move = moves.get(traveller._id);
    if (!move) continue;
    const key = `${traveller.seq}\n${JSON.stringify(move)}`;
    const same = byMove.get(key) ?? {
      move,
      seq: traveller.seq,
      ids: [],
      runId: goesOnNow(move.result) ? randomUUID() : null,
    };
    same.ids.push(traveller._id);
    byMove.set(key, same);
    counts.set(traveller._id, countsOf(batch, traveller, move));
    if (same.runId) goingOn.push(onward(batch, traveller, move, same.runId));
  }
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [...byMove.values()].map(
    ({ move, seq, ids, runId }) => ({
      updateMany: { filter: stepBatchFilter(batch, ids, seq), update: movedOn(batch, move, runId) },
    }),
  );
  const moved = await moveCounted(models, batch.move, operations, counts.size, counts, stats);
  return moved === 'all' ? goingOn : goingOn.filter((traveller) => moved.has(traveller._id));
}
