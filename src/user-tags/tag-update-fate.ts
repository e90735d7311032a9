import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/**
 * What became of a queued tag update, decided once: the worker claims it before applying ('applying', then
 * 'applied'), or the request that queued it, tired of waiting, withdraws it ('withdrawn'), so that its 503 can truly
 * say nothing changed. Whichever claims first wins. An applied update replayed from the dashboard changes nothing
 * either: applying it again would overwrite whatever the user's tags became since.
 */
export type TagUpdateFate = 'applying' | 'applied' | 'withdrawn';

const fateSeconds = 30 * 24 * 3600;

/** The fate that holds after trying to claim one. */
export async function claimFate(
  deps: Pick<Deps, 'redis' | 'config'>,
  jobId: string,
  claim: 'applying' | 'withdrawn',
): Promise<TagUpdateFate> {
  const key = redisKeys.tagUpdateFate(deps.config.queuePrefix, jobId);
  if ((await deps.redis.set(key, claim, 'EX', fateSeconds, 'NX')) === 'OK') return claim;
  return ((await deps.redis.get(key)) as TagUpdateFate | null) ?? claim;
}

export async function markApplied(deps: Pick<Deps, 'redis' | 'config'>, jobId: string): Promise<void> {
  await deps.redis.set(redisKeys.tagUpdateFate(deps.config.queuePrefix, jobId), 'applied', 'EX', fateSeconds);
}
