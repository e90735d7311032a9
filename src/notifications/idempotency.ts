import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

export const idempotencyWindowSeconds = 24 * 60 * 60;

const claimScript = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
`;

/**
 * Binds an Idempotency-Key to a notification id for 24 hours and answers the id bound to it, which is `candidateId`
 * for the first request. Redis holds the binding: the claim is one atomic script on the request path, and the key
 * expires by itself.
 */
function bindingKey(deps: Pick<Deps, 'config'>, projectId: string, key: string): string {
  const digest = createHash('sha256').update(key).digest('hex');
  return redisKeys.idempotency(deps.config.queuePrefix, projectId, digest);
}

/** The notification id the key is bound to, if a request with it came within 24 hours. */
export async function boundNotificationId(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
): Promise<string | null> {
  return deps.redis.get(bindingKey(deps, projectId, key));
}

export async function claimIdempotencyKey(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  key: string,
  candidateId: string,
): Promise<string> {
  return (await deps.redis.eval(
    claimScript,
    1,
    bindingKey(deps, projectId, key),
    candidateId,
    idempotencyWindowSeconds,
  )) as string;
}
