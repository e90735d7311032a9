import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { Traveller } from './steps/step-context.ts';

export const claimBatchSize = 500;

type ClaimState = 'due' | 'running';
interface Bound {
  dueAt: Date;
  _id: string;
}

/** The oldest due steps, in the order of the {state, dueAt, _id} index: due ones, and those whose lease passed. */
export const dueTravellersQuery = (models: Models, state: ClaimState, now: Date, limit: number) =>
  models.JourneyTraveller.find({ state, dueAt: { $lte: now } }, { _id: 1, dueAt: 1 })
    .sort({ dueAt: 1, _id: 1 })
    .limit(limit)
    .lean<Bound[]>();

/** A batch's claimed travellers, read back whole. */
export const claimedTravellersQuery = (models: Models, claim: string) =>
  models.JourneyTraveller.find({ claim }).lean<Traveller[]>();

/**
 * Those of `state` up to the last one read, in index order: all due before its time, and those due at its time up to
 * its _id. Two range updates on the index rather than one write per traveller: a storage server applies a range in one
 * pass, where 500 point updates cost it 500 round trips of its own.
 */
export const claimRangeFilters = (state: ClaimState, last: Bound) => [
  { state, dueAt: { $lt: last.dueAt } },
  { state, dueAt: last.dueAt, _id: { $lte: last._id } },
];

const upTo = (state: ClaimState, last: Bound, set: Record<string, unknown>) =>
  claimRangeFilters(state, last).map((filter) => ({ updateMany: { filter, update: { $set: set } } }));

/**
 * Takes up to a batch of the travellers whose step is due, oldest first, for this worker: those due get a new runId,
 * those whose worker died holding them (lease passed) keep theirs, so their step's writes come out the same. Each
 * write is conditional on the state read, so two workers claiming at once split the travellers, never share one.
 * `found` is how many were due: more than were claimed when another worker took some first.
 */
export async function claimDueTravellers(
  models: Models,
  leaseMs: number,
  limit = claimBatchSize,
): Promise<{ claim: string; travellers: Traveller[]; found: number }> {
  const now = new Date();
  const claim = randomUUID();
  const lapsed = await dueTravellersQuery(models, 'running', now, limit);
  const due = lapsed.length < limit ? await dueTravellersQuery(models, 'due', now, limit - lapsed.length) : [];
  const found = lapsed.length + due.length;
  if (found === 0) return { claim, travellers: [], found };
  const lease = new Date(now.getTime() + leaseMs);
  const claimed = { state: 'running', claim, dueAt: lease };
  await models.JourneyTraveller.bulkWrite(
    [
      ...(lapsed.length > 0 ? upTo('running', lapsed.at(-1)!, claimed) : []),
      ...(due.length > 0 ? upTo('due', due.at(-1)!, { ...claimed, runId: claim }) : []),
    ],
    { ordered: true },
  );
  return { claim, travellers: await claimedTravellersQuery(models, claim), found };
}
