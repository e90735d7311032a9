import type { AnyBulkWriteOperation } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import { type StepBatch, stepBatchFilter } from './advance-travellers.ts';
import type { StatsChanges } from './journey-stats.ts';
import { moveCounted, type TravellerCounts } from './counted-moves.ts';

/** A step that fails for a traveller runs again for it after each of these delays, then the traveller leaves. */
export const stepRetryDelaysMs = [1000, 10_000];

/** The reason recorded for the traveller lookup: the error's message, bounded. */
export const failureReason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 200) || 'the step failed';

/**
 * Records a failed attempt of the step on each traveller, alone: the traveller is held by its record, running under
 * its runId (stored now when it was claimed in Redis), so that the retry writes what the attempt would have, with its
 * lease lapsing at the retry time, when a claim takes it over with the others of this step run (their claim is the
 * run's write id, so none is taken over apart from its run id); after the last retry it leaves with `step_failed`.
 * Each attempt is in its passed steps with the reason.
 */
export async function failTravellers(
  models: Models,
  batch: StepBatch,
  failed: Map<string, string>,
  stats: StatsChanges,
): Promise<void> {
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [];
  const counts: TravellerCounts = new Map();
  for (const traveller of batch.travellers) {
    const reason = failed.get(traveller._id);
    if (reason === undefined) continue;
    const attempt = (traveller.failures ?? 0) + 1;
    const delay = stepRetryDelaysMs[attempt - 1];
    const retryAt = delay === undefined ? null : new Date(batch.now.getTime() + delay);
    const outcome = { failed: reason, attempt, ...(retryAt && { retryAt: retryAt.toISOString() }) };
    const update = retryAt
      ? {
          $set: { state: 'running' as const, claim: batch.move, runId: traveller.runId, dueAt: retryAt },
          $inc: { failures: 1 },
        }
      : {
          $set: {
            state: 'done' as const,
            endReason: 'step_failed' as const,
            endedAt: batch.now,
            claim: null,
            movedBy: batch.move,
            dueAt: null,
            runId: null,
            listening: null,
            waitingIn: null,
          },
        };
    operations.push({
      updateOne: {
        filter: stepBatchFilter(batch, [traveller._id], traveller.seq),
        update: { ...update, $push: { passed: { stepId: batch.stepId, at: batch.now, outcome } } },
      },
    });
    if (retryAt) continue;
    const left: Array<[string, number]> = [['exited', 1]];
    if (traveller.waitingIn) left.push([`${traveller.waitingIn}.waiting`, -1]);
    counts.set(traveller._id, left);
  }
  await moveCounted(models, batch.move, operations, operations.length, counts, stats);
}
