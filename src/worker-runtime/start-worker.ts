import { Worker, type Processor } from 'bullmq';
import type { WorkerContext } from './worker-context.ts';
import type { QueueName } from '../queues/names.ts';

export interface WorkerOptions {
  concurrency: number;
}

/** A BullMQ worker on the context's queue prefix, with its failures logged with their job. */
export function startWorker(context: WorkerContext, queueName: QueueName, processor: Processor, options: WorkerOptions): Worker {
  const worker = new Worker(queueName, processor, {
    connection: context.redis,
    prefix: context.config.queuePrefix,
    concurrency: options.concurrency,
  });
  worker.on('failed', (job, error) => context.log.warn({ queue: queueName, jobId: job?.id, jobName: job?.name, err: error }, 'job failed'));
  worker.on('error', (error) => context.log.error({ queue: queueName, err: error }, 'worker error'));
  return worker;
}
