import { randomUUID } from 'node:crypto';
import type { Models } from '../models/index.ts';
import type { Traveller } from './steps/step-context.ts';
import { claimStepRuns, releaseStepRuns, type StepRunKey } from './traveller-claims.ts';
import type { StepDeps } from './steps/step-context.ts';

export const claimBatchSize = 500;

/**
 * How many due travellers one read finds, for that many claims of a batch each: the local server reads every due key
 * for a read of the oldest, whatever its limit (10,000 due: 1.5 s), so one read serves five batches rather than one.
 */
export const dueScanSize = 2500;

/** A due traveller found: its step run's key, and when it fell due. */
export type Found = StepRunKey & { dueAt: Date };

/**
 * The oldest due steps, in the order of the {state, dueAt, _id} index: those due, and those of a claim that lapsed
 * (a claim leaves its travellers due; traveller-claims.ts).
 */
export const dueTravellersQuery = (models: Models, now: Date, limit = dueScanSize) =>
  models.JourneyTraveller.find({ state: 'due', dueAt: { $lte: now } }, { _id: 1, dueAt: 1, seq: 1 })
    .sort({ dueAt: 1, _id: 1 })
    .limit(limit)
    .lean<Found[]>();

/** Travellers read back whole by id, once claimed. */
export const travellersByIdQuery = (models: Models, ids: string[]) =>
  models.JourneyTraveller.find({ _id: { $in: ids } }).lean<Traveller[]>();

/**
 * Takes the step runs of the travellers found in `batch` that no live claim holds, for this worker, and reads them
 * back: each with the runId its step runs under (the one stored when its step was chained or retried, else the
 * claim's, or that of the claim that lapsed holding it, so that its step's writes come out the same). Those moved on
 * since they were found (another worker ran their step meanwhile, an event or an exit rule moved them) are let go.
 */
export async function claimFound(
  deps: StepDeps,
  leaseMs: number,
  batch: Found[],
): Promise<{ claim: string; travellers: Traveller[] }> {
  const claim = randomUUID();
  const runIds = await claimStepRuns(deps, claim, leaseMs, batch);
  if (runIds.size === 0) return { claim, travellers: [] };
  const seqs = new Map(batch.map(({ _id, seq }) => [_id, seq]));
  const now = Date.now();
  const read = await travellersByIdQuery(deps.models, [...runIds.keys()]);
  const travellers = read
    .filter((t) => t.state === 'due' && t.seq === seqs.get(t._id) && t.dueAt && t.dueAt.getTime() <= now)
    .map((traveller) => ({ ...traveller, runId: traveller.runId ?? runIds.get(traveller._id)! }));
  const taken = new Set(travellers.map((traveller) => traveller._id));
  await releaseStepRuns(
    deps,
    claim,
    batch.filter(({ _id }) => runIds.has(_id) && !taken.has(_id)),
  );
  return { claim, travellers };
}

/** Takes up to a batch of the oldest due travellers for this worker (claimFound); `found` is how many were due. */
export async function claimDueTravellers(
  deps: StepDeps,
  leaseMs: number,
  limit = claimBatchSize,
): Promise<{ claim: string; travellers: Traveller[]; found: number }> {
  const found = await dueTravellersQuery(deps.models, new Date(), limit);
  return { ...(await claimFound(deps, leaseMs, found)), found: found.length };
}
