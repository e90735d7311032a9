import { Queue } from 'bullmq';
import type { RedisClient } from '../infra/redis.ts';
import type { Config } from '../config.ts';
import { queueNames, type QueueName, type Queues } from '../infra/queue-names.ts';
import { redisKeys } from '../infra/redis-keys.ts';

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
  const entries = Object.entries(queueNames).map(([key, name]) => [key, new Queue(name, options(name))]);
  return Object.fromEntries(entries) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
