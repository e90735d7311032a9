import { randomUUID } from 'node:crypto';
import { inChunks, maxIdsPerIn } from '../infra/chunks.ts';
import type { Models } from '../models/index.ts';
import type { Traveller } from './steps/step-context.ts';

export const claimBatchSize = 500;

type ClaimState = 'due' | 'running';
interface Bound {
  dueAt: Date;
  _id: string;
  /** The claim of a traveller whose lease passed; null for a due one. */
  claim?: string | null;
}

/** The oldest due steps, in the order of the {state, dueAt, _id} index: due ones, and those whose lease passed. */
export const dueTravellersQuery = (models: Models, state: ClaimState, now: Date, limit: number) =>
  models.JourneyTraveller.find({ state, dueAt: { $lte: now } }, { _id: 1, dueAt: 1, claim: 1 })
    .sort({ dueAt: 1, _id: 1 })
    .limit(limit)
    .lean<Bound[]>();

/** A batch's claimed travellers, read back whole. */
export const claimedTravellersQuery = (models: Models, claim: string) =>
  models.JourneyTraveller.find({ claim }).lean<Traveller[]>();

/** A due traveller found, in claim order: those whose lease passed, then those due, each oldest first. */
export type Found = { state: ClaimState } & Bound;

/**
 * What a batch's claim takes: the travellers of its one lapsed claim, whole (on the {claim} index), else those of its
 * ids still due, in `$in`s of 100. Never a range: travellers due since the read sort among a batch's own, and a claim
 * is at most its batch. Each filter's first field is the one the local server looks up.
 */
export function claimFilters(batch: Found[], now: Date) {
  const [first] = batch;
  const due = { $lte: now };
  if (first?.state === 'running' && first.claim) return [{ claim: first.claim, state: 'running' as const, dueAt: due }];
  const state = first?.state ?? 'due';
  const ids = batch.map((found) => found._id);
  return [...inChunks(ids, maxIdsPerIn)].map((chunk) =>
    state === 'running'
      ? { _id: { $in: chunk }, claim: null, state, dueAt: due }
      : { _id: { $in: chunk }, state, dueAt: due },
  );
}

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
 * Takes the next batch off `found` (in claim order): every traveller found of the first one's lapsed claim, or up to a
 * claim's batch of due ones. A lapsed claim's travellers share their step runs' run ids, whose push notifications name
 * them all: taken over in parts, the part that ran second would be recorded as sent in the first part's notification.
 */
export function takeBatch(found: Found[]): Found[] {
  const [first] = found;
  if (first?.state !== 'running') return found.splice(0, claimBatchSize);
  const sameClaim = (candidate: Found) => candidate.state === 'running' && candidate.claim === first.claim;
  const batch = found.filter(sameClaim).slice(0, claimBatchSize);
  const taken = new Set(batch);
  let kept = 0;
  for (const candidate of found) if (!taken.has(candidate)) found[kept++] = candidate;
  found.length = kept;
  return batch;
}

/**
 * Takes a batch (takeBatch) for this worker: due ones get a new runId, a lapsed claim's travellers (their worker died
 * holding them) keep theirs, so their step's writes come out the same. The write is conditional on the state read, so
 * two workers claiming at once never share a traveller: fewer than found are claimed when another worker took some.
 */
export async function claimFound(
  models: Models,
  leaseMs: number,
  batch: Found[],
): Promise<{ claim: string; travellers: Traveller[] }> {
  const claim = randomUUID();
  if (batch.length === 0) return { claim, travellers: [] };
  const now = new Date();
  const claimed = { state: 'running', claim, dueAt: new Date(now.getTime() + leaseMs) };
  const $set = batch[0]!.state === 'due' ? { ...claimed, runId: claim } : claimed;
  await models.JourneyTraveller.bulkWrite(
    claimFilters(batch, now).map((filter) => ({ updateMany: { filter, update: { $set } } })),
    { ordered: false },
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
  return { ...(await claimFound(models, leaseMs, takeBatch(found))), found: found.length };
}
