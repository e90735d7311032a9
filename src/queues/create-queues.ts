import { Queue } from 'bullmq';
import type { RedisClient } from '../infra/redis.ts';
import type { Config } from '../config.ts';
import { perQueue, type QueueKey, type QueueName } from './registry.ts';
import { redisKeys } from '../infra/redis-keys.ts';

export type Queues = Record<QueueKey, Queue>;

/**
 * Every queue keeps finished jobs, failed ones with their data, error and stack, for as long as configured, so the
 * dashboard can show and replay them; jobs may still set their own retention.
 */
export function createQueues(connection: RedisClient, config: Pick<Config, 'queuePrefix' | 'jobRetention'>): Queues {
  const options = (name: QueueName) => ({
    connection,
    prefix: redisKeys.queuePrefix(config.queuePrefix, name),
    defaultJobOptions: {
      removeOnComplete: { age: config.jobRetention.completedHours * 3600 },
      removeOnFail: { age: config.jobRetention.failedDays * 24 * 3600 },
    },
  });
  return perQueue(({ name }) => new Queue(name, options(name)));
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
