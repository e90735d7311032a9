import type { RedisClient } from '../infra/redis.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** Every write of a project's journeys bumps this number, so event-ingest workers notice at their next job. */
export async function bumpJourneyVersion(redis: RedisClient, prefix: string, projectId: string): Promise<void> {
  await redis.incr(redisKeys.journeysVersion(prefix, projectId));
}

export async function readJourneyVersion(redis: RedisClient, prefix: string, projectId: string): Promise<string> {
  return (await redis.get(redisKeys.journeysVersion(prefix, projectId))) ?? '0';
}
