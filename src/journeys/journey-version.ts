import type { Redis } from 'ioredis';

const versionKey = (prefix: string, projectId: string) => `${prefix}:journeys-version:${projectId}`;

/** Every write of a project's journeys bumps this number, so event-ingest workers notice at their next job. */
export async function bumpJourneyVersion(redis: Redis, prefix: string, projectId: string): Promise<void> {
  await redis.incr(versionKey(prefix, projectId));
}

export async function readJourneyVersion(redis: Redis, prefix: string, projectId: string): Promise<string> {
  return (await redis.get(versionKey(prefix, projectId))) ?? '0';
}
