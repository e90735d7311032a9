import { hostname } from 'node:os';
import { Worker, type MinimalJob } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueDefinition } from '../queues/queue-definition.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { queueProcessors } from './processors.ts';

export interface WorkerOptions {
  concurrency: number;
  /** How long a job's lock lasts without renewal: a process that died holds its jobs this long at most. */
  lockDurationMs?: number;
  /** How often locks whose holder died are looked for; such jobs go back to the queue. */
  stalledIntervalMs?: number;
}

export interface QueueWorker {
  worker: Worker;
  /** Lets the active jobs finish, then releases what the processor holds. */
  close(): Promise<void>;
}

/** BullMQ's deferred failure of a job found stalled more often than maxStalledCount allows, which it fails unrun. */
const stalledTooOften = 'job stalled more than allowable limit';

/** Settling a job failed unrun writes to MongoDB, which may be away for a moment: tried for about half a minute. */
const settleDelaysMs = [1000, 2000, 4000, 8000, 16_000];

async function settleWithRetries(settle: () => Promise<void>): Promise<void> {
  for (const delayMs of settleDelaysMs) {
    try {
      return await settle();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
  await settle();
}

/**
 * A BullMQ worker running the queue's processor on the deps' queue prefix, with its failures logged with their job.
 * Its name, stored on each job it processes, says which process ran the job (the dashboard shows it).
 */
export async function startQueueWorker(
  deps: Deps,
  definition: QueueDefinition,
  options: WorkerOptions,
): Promise<QueueWorker> {
  const { name } = definition;
  const processor = (await queueProcessors[name]())(deps);
  const worker = new Worker(name, processor.process, {
    connection: deps.redis,
    prefix: redisKeys.queuePrefix(deps.config.queuePrefix, name),
    name: `${name}@${hostname()}:${process.pid}`,
    concurrency: options.concurrency,
    ...(definition.maxStalledCount !== undefined && { maxStalledCount: definition.maxStalledCount }),
    ...(definition.backoffStrategy && {
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: MinimalJob) =>
          definition.backoffStrategy!(attemptsMade, deps.config, job),
      },
    }),
    ...(options.lockDurationMs !== undefined && { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs !== undefined && { stalledInterval: options.stalledIntervalMs }),
  });
  const settling = new Set<Promise<void>>();
  worker.on('failed', (job, error) => {
    deps.log.warn({ queue: name, jobId: job?.id, jobName: job?.name, err: error }, 'job failed');
    const { failedUnrun } = processor;
    if (job?.deferredFailure !== stalledTooOften || !failedUnrun) return;
    const settled = settleWithRetries(() => failedUnrun(job)).catch((failure: unknown) =>
      deps.log.error({ queue: name, jobId: job.id, err: failure }, 'a job failed unrun could not be settled'),
    );
    settling.add(settled);
    void settled.finally(() => settling.delete(settled));
  });
  worker.on('error', (error) => deps.log.error({ queue: name, err: error }, 'worker error'));
  return {
    worker,
    async close() {
      await worker.close();
      await Promise.all(settling);
      await processor.close?.();
    },
  };
}
