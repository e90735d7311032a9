import { randomUUID } from 'node:crypto';
import { inChunks, maxIdsPerIn } from '../infra/chunks.ts';
import type { Models } from '../models/index.ts';
import type { StepDeps, Traveller } from './steps/step-context.ts';
import type { Found } from './find-due.ts';
import { claimStepRuns, releaseStepRuns } from './traveller-claims.ts';

export const claimBatchSize = 500;

/** A batch's claimed travellers, read back whole. */
export const claimedTravellersQuery = (models: Models, claim: string) =>
  models.JourneyTraveller.find({ claim }).lean<Traveller[]>();

/** Travellers read back whole by id (up to 100: the local server matches a shorter `$in` faster). */
export const travellersByIdQuery = (models: Models, ids: string[]) =>
  models.JourneyTraveller.find({ _id: { $in: ids } }).lean<Traveller[]>();

/**
 * What a lapsed claim's takeover writes: its travellers, whole (on the {claim} index), or those of the batch's ids
 * running under no claim, in `$in`s of 100. Never a range: travellers due since the read sort among a batch's own,
 * and a claim is at most its batch. Each filter's first field is the one the local server looks up.
 */
export function claimFilters(batch: Found[], now: Date) {
  const [first] = batch;
  const due = { $lte: now };
  if (first?.claim) return [{ claim: first.claim, state: 'running' as const, dueAt: due }];
  const ids = batch.map((found) => found._id);
  return [...inChunks(ids, maxIdsPerIn)].map((chunk) => ({
    _id: { $in: chunk },
    claim: null,
    state: 'running' as const,
    dueAt: due,
  }));
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

type ClaimDeps = Pick<StepDeps, 'models' | 'redis' | 'config'>;

/**
 * Takes a lapsed claim's travellers (takeBatch; their worker died holding them, or their step failed and its retry
 * is due) under their runIds, so their step's writes come out the same. The write is conditional on the state read,
 * so two workers taking it at once never share a traveller.
 */
async function takeOverLapsed(models: Models, leaseMs: number, batch: Found[], claim: string) {
  const now = new Date();
  const $set = { state: 'running', claim, dueAt: new Date(now.getTime() + leaseMs) };
  await models.JourneyTraveller.bulkWrite(
    claimFilters(batch, now).map((filter) => ({ updateMany: { filter, update: { $set } } })),
    { ordered: false },
  );
  return claimedTravellersQuery(models, claim);
}

/**
 * Takes due travellers' step runs in Redis (traveller-claims.ts), their records unwritten, and reads them back: each
 * under the runId of its step run (one stored on its record while it was held, else its claim's), those still at the
 * step found (not moved on by an event or another worker since, nor held by a pause).
 */
async function claimDue(deps: ClaimDeps, leaseMs: number, batch: Found[], claim: string) {
  const runIds = await claimStepRuns(deps, claim, leaseMs, batch);
  if (runIds.size === 0) return [];
  const seqs = new Map(batch.map(({ _id, seq }) => [_id, seq]));
  const now = Date.now();
  const atStep = (traveller: Traveller) =>
    traveller.state === 'due' && traveller.seq === seqs.get(traveller._id) && traveller.dueAt!.getTime() <= now;
  const chunks = [...inChunks([...runIds.keys()], maxIdsPerIn)];
  const read = (await Promise.all(chunks.map((ids) => travellersByIdQuery(deps.models, ids)))).flat();
  const travellers = read
    .filter(atStep)
    .map((traveller) => ({ ...traveller, runId: traveller.runId ?? runIds.get(traveller._id)! }));
  const taken = new Set(travellers.map((traveller) => traveller._id));
  await releaseStepRuns(
    deps,
    claim,
    [...runIds.keys()].filter((id) => !taken.has(id)),
    'unrun',
  );
  return travellers;
}

/**
 * Takes a batch (takeBatch) for this worker: due ones by a claim in Redis, a lapsed claim's by a write of their
 * records. Fewer than found are taken when another worker took some first.
 */
export async function claimFound(
  deps: ClaimDeps,
  leaseMs: number,
  batch: Found[],
): Promise<{ claim: string; travellers: Traveller[] }> {
  const claim = randomUUID();
  if (batch.length === 0) return { claim, travellers: [] };
  const travellers =
    batch[0]!.state === 'due'
      ? await claimDue(deps, leaseMs, batch, claim)
      : await takeOverLapsed(deps.models, leaseMs, batch, claim);
  return { claim, travellers };
}
