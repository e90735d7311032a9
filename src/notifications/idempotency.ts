import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { claimBinding, keyDigest } from '../infra/idempotency-binding.ts';

export const idempotencyWindowSeconds = 24 * 60 * 60;

function bindingKey(deps: Pick<Deps, 'config'>, projectId: string, key: string): string {
  return redisKeys.idempotency(deps.config.queuePrefix, projectId, keyDigest(key));
}

/** The notification id the key is bound to, if a request with it came within 24 hours. */
export async function boundNotificationId(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
): Promise<string | null> {
  return deps.redis.get(bindingKey(deps, projectId, key));
}

/**
 * Binds an Idempotency-Key to a notification id for 24 hours and answers the id bound to it, which is `candidateId`
 * for the first request. Redis holds the binding, and the key expires by itself.
 */
export function claimIdempotencyKey(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
  candidateId: string,
): Promise<string> {
  return claimBinding(deps.redis, bindingKey(deps, projectId, key), candidateId, idempotencyWindowSeconds);
}
