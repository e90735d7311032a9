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

/** A due traveller found, in claim order: those whose lease passed, then those due, each oldest first. */
export type Found = { state: ClaimState } & Bound;

/** The oldest due steps: those whose worker died holding them (lease passed) first, then those due. */
export async function findDue(models: Models, now: Date, limit: number): Promise<Found[]> {
  const lapsed = await dueTravellersQuery(models, 'running', now, limit);
  const due = lapsed.length < limit ? await dueTravellersQuery(models, 'due', now, limit - lapsed.length) : [];
  return [
    ...lapsed.map((bound) => ({ state: 'running' as const, ...bound })),
    ...due.map((bound) => ({ state: 'due' as const, ...bound })),
  ];
}

/**
 * Takes the travellers found in `batch` (and any due before its last ones meanwhile) for this worker: those due get a
 * new runId, those whose worker died holding them (lease passed) keep theirs, so their step's writes come out the
 * same. Each write is conditional on the state read, so two workers claiming at once split the travellers, never
 * share one: fewer than found are claimed when another worker took some first.
 */
export async function claimFound(
  models: Models,
  leaseMs: number,
  batch: Found[],
): Promise<{ claim: string; travellers: Traveller[] }> {
  const claim = randomUUID();
  const lastOf = (state: ClaimState) => batch.findLast((found) => found.state === state);
  const [lapsed, due] = [lastOf('running'), lastOf('due')];
  if (!lapsed && !due) return { claim, travellers: [] };
  const claimed = { state: 'running', claim, dueAt: new Date(Date.now() + leaseMs) };
  await models.JourneyTraveller.bulkWrite(
    [
      ...(lapsed ? upTo('running', lapsed, claimed) : []),
      ...(due ? upTo('due', due, { ...claimed, runId: claim }) : []),
    ],
    { ordered: true },
  );
  return { claim, travellers: await claimedTravellersQuery(models, claim) };
}

/** Takes up to a batch of the oldest due travellers for this worker (claimFound); `found` is how many were due. */
export async function claimDueTravellers(
  models: Models,
  leaseMs: number,
  limit = claimBatchSize,
): Promise<{ claim: string; travellers: Traveller[]; found: number }> {
  const found = await findDue(models, new Date(), limit);
  return { ...(await claimFound(models, leaseMs, found)), found: found.length };
}
