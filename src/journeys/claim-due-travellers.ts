import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { Traveller } from './steps/step-context.ts';

/** How long a claim holds before another worker may take the travellers over (their step then runs again, keyed). */
export const claimLeaseMs = 60_000;
export const claimBatchSize = 500;

/**
 * Takes up to a batch of the travellers whose step is due, oldest first, for this worker: those due get a new runId,
 * those whose worker died holding them (lease passed) keep theirs, so their step's writes come out the same. Each
 * write is conditional on what was read, so two workers claiming at once split the travellers, never share one.
 */
export async function claimDueTravellers(
  models: Models,
  limit = claimBatchSize,
): Promise<{ claim: string; travellers: Traveller[] }> {
  const now = new Date();
  const due = await models.JourneyTraveller.find(
    { state: { $in: ['due', 'running'] }, dueAt: { $lte: now } },
    { _id: 1, state: 1 },
  )
    .sort({ dueAt: 1 })
    .limit(limit)
    .lean();
  const claim = randomUUID();
  if (due.length === 0) return { claim, travellers: [] };
  const lease = new Date(now.getTime() + claimLeaseMs);
  // One conditional update by _id each, in one bulk write: a point update is what every storage server does fast, where
  // an updateMany over an $in of ids was found to take seconds on SecantusDB.
  await models.JourneyTraveller.bulkWrite(
    due.map(({ _id, state }) => ({
      updateOne: {
        filter: { _id, state, dueAt: { $lte: now } },
        update: { $set: { state: 'running' as const, claim, dueAt: lease, ...(state === 'due' && { runId: claim }) } },
      },
    })),
    { ordered: false },
  );
  const travellers = await models.JourneyTraveller.find({ claim }).lean<Traveller[]>();
  return { claim, travellers };
}
