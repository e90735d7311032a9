import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** Every write of a project's journeys bumps this number, so event-ingest workers notice at their next job. */
export async function bumpJourneyVersion(deps: Pick<Deps, 'redis' | 'config'>, projectId: string): Promise<void> {
  await deps.redis.incr(redisKeys.journeysVersion(deps.config.queuePrefix, projectId));
}

export async function readJourneyVersion(deps: Pick<Deps, 'redis' | 'config'>, projectId: string): Promise<string> {
  return (await deps.redis.get(redisKeys.journeysVersion(deps.config.queuePrefix, projectId))) ?? '0';
}
