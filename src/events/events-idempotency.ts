import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { claimBinding, keyDigest } from '../infra/idempotency-binding.ts';
import { recordedMarkerSeconds } from './pending-counts.ts';
import { newIngestJobId } from '../queues/event-ingest.ts';

/**
 * As long as an ingest job's counts are marked recorded: a retry within it counts nothing again, and the bindings of
 * busy SDKs (one per event) do not pile up in Redis.
 */
export const eventsIdempotencyWindowSeconds = recordedMarkerSeconds;

/**
 * The ingest job id of an events request with an Idempotency-Key: the id the key's first request got. A retry after a
 * lost answer (the SDK retries every network failure) queues the same job, which BullMQ adds once, and the worker
 * stores its events under ids derived from the job's, so a job queued again after the first was removed stores
 * nothing twice either.
 */
export function ingestJobIdFor(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  deviceId: string | null,
  idempotencyKey: string,
): Promise<string> {
  const binding = redisKeys.eventsIdempotency(deps.config.queuePrefix, projectId, deviceId, keyDigest(idempotencyKey));
  return claimBinding(deps.redis, binding, newIngestJobId(), eventsIdempotencyWindowSeconds);
}
