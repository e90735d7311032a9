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
    { _id: 1 },
  )
    .sort({ dueAt: 1 })
    .limit(limit)
    .lean();
  const claim = randomUUID();
  if (due.length === 0) return { claim, travellers: [] };
  const ids = due.map((traveller) => traveller._id);
  const lease = new Date(now.getTime() + claimLeaseMs);
  await models.JourneyTraveller.updateMany(
    { _id: { $in: ids }, state: 'due', dueAt: { $lte: now } },
    { $set: { state: 'running', claim, runId: claim, dueAt: lease } },
  );
  await models.JourneyTraveller.updateMany(
    { _id: { $in: ids }, state: 'running', dueAt: { $lte: now } },
    { $set: { claim, dueAt: lease } },
  );
  const travellers = await models.JourneyTraveller.find({ claim }).lean<Traveller[]>();
  return { claim, travellers };
}
