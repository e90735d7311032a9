import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { claimBinding, keyDigest, requestBodyDigest } from '../infra/idempotency-binding.ts';
import { idempotencyKeyReused } from '../errors.ts';
import { recordedMarkerSeconds } from './pending-counts.ts';
import { newIngestJobId } from '../queues/event-ingest.ts';

/**
 * A server's key holds for as long as an ingest job's counts stay marked recorded, so a retry within it counts
 * nothing again. The SDK's, one per event, for ten minutes: its retries end within about a minute, and at thousands of
 * events a second an hour of them would take gigabytes of Redis.
 */
const windowSeconds = (deviceId: string | null) => (deviceId === null ? recordedMarkerSeconds : 10 * 60);

/**
 * The ingest job id of an events request with an Idempotency-Key: the id the key's first request got. A retry after a
 * lost answer (the SDK retries every network failure) queues the same job, which BullMQ adds once, and the worker
 * stores its events under ids derived from the job's, so a job queued again after the first was removed stores
 * nothing twice either. A key sent again with another body is the 422 of CONTRACTS §1: its events would be neither stored nor refused.
 */
export async function ingestJobIdFor(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  deviceId: string | null,
  idempotencyKey: string | undefined,
  body: unknown,
): Promise<string | undefined> {
  // Without a key, enqueueEvents makes a new id.
  if (idempotencyKey === undefined) return undefined;
  const binding = redisKeys.eventsIdempotency(deps.config.queuePrefix, projectId, deviceId, keyDigest(idempotencyKey));
  const request = requestBodyDigest(body);
  const bound = await claimBinding(deps.redis, binding, `${newIngestJobId()}:${request}`, windowSeconds(deviceId));
  const [jobId, boundRequest] = bound.split(':');
  if (boundRequest !== request) throw idempotencyKeyReused();
  return jobId!;
}
