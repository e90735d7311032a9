import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createBlockingRedis, waitForRedis } from '../infra/redis.ts';
import type { Deps } from '../deps.ts';
import { openDeps } from '../open-deps.ts';
import { queueRegistry } from '../queues/registry.ts';

/**
 * A worker process's deps, on a Redis connection that waits and reconnects while Redis is away, as BullMQ workers
 * require; at start-up a Redis that does not answer within 5 s is a StartUpError, not a wait for ever. Whatever its
 * queue, it sets every queue's repeatable jobs, so they exist as soon as any worker runs.
 */
export async function openWorkerDeps(config: Config, log: Logger): Promise<Deps> {
  const redis = createBlockingRedis(config.redisUrl);
  await waitForRedis(redis);
  redis.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
  const deps = await openDeps(config, log, redis);
  for (const definition of Object.values(queueRegistry)) await definition.schedule?.(deps);
  return deps;
}
