import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { boundIdFor, claimBinding, keyDigest, requestBinding } from '../infra/idempotency-binding.ts';

export const idempotencyWindowSeconds = 24 * 60 * 60;

function bindingKey(deps: Pick<Deps, 'config'>, projectId: string, key: string): string {
  return redisKeys.idempotency(deps.config.queuePrefix, projectId, keyDigest(key));
}

/**
 * The notification id the key is bound to, if a request with it came within 24 hours; a 400 if that request was
 * another one (src/infra/idempotency-binding.ts).
 */
export async function boundNotificationId(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
  request: unknown,
): Promise<string | null> {
  const binding = await deps.redis.get(bindingKey(deps, projectId, key));
  return binding === null ? null : boundIdFor(binding, request);
}

/**
 * Binds an Idempotency-Key to a notification id and the request for 24 hours and answers the id bound to it, which is
 * `candidateId` for the first request. Redis holds the binding, and the key expires by itself.
 */
export async function claimIdempotencyKey(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
  candidateId: string,
  request: unknown,
): Promise<string> {
  const binding = bindingKey(deps, projectId, key);
  return boundIdFor(
    await claimBinding(deps.redis, binding, requestBinding(candidateId, request), idempotencyWindowSeconds),
    request,
  );
}
