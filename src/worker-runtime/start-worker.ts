import { hostname } from 'node:os';
import { Worker, type Processor } from 'bullmq';
import type { WorkerContext } from './worker-context.ts';
import type { QueueName } from '../queues/names.ts';
import { redisKeys } from '../infra/redis-keys.ts';

export interface WorkerOptions {
  concurrency: number;
  /** How long a job's lock lasts without renewal: a process that died holds its jobs this long at most. */
  lockDurationMs?: number;
  /** How often locks whose holder died are looked for; such jobs go back to the queue. */
  stalledIntervalMs?: number;
}

/**
 * A BullMQ worker on the context's queue prefix, with its failures logged with their job. Its name, stored on
 * each job it processes, says which process ran the job (the dashboard shows it).
 */
export function startWorker(
  context: WorkerContext,
  queueName: QueueName,
  processor: Processor,
  options: WorkerOptions,
): Worker {
  const worker = new Worker(queueName, processor, {
    connection: context.redis,
    prefix: redisKeys.queuePrefix(context.config.queuePrefix, queueName),
    name: `${queueName}@${hostname()}:${process.pid}`,
    concurrency: options.concurrency,
    ...(options.lockDurationMs !== undefined && { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs !== undefined && { stalledInterval: options.stalledIntervalMs }),
  });
  worker.on('failed', (job, error) =>
    context.log.warn({ queue: queueName, jobId: job?.id, jobName: job?.name, err: error }, 'job failed'),
  );
  worker.on('error', (error) => context.log.error({ queue: queueName, err: error }, 'worker error'));
  return worker;
}
