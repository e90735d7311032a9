import { Worker, type Job, type WorkerOptions } from 'bullmq';
import { expect } from 'vitest';
import { queueNames } from '../../src/infra/queue-names.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import type { DeliverJobData } from '../../src/queues/deliver.ts';
import type { Models } from '../../src/models/index.ts';
import type { DeliveryHarness } from './delivery-harness.ts';
import { eventually } from './eventually.ts';

export interface ManualDeliveries {
  /** A worker of the test's own, which runs nothing by itself. */
  manual: Worker;
  /** The next batch in the queue, taken with `token` as a worker takes it: active, with the manual worker's lock. */
  takeNext(token: string): Promise<Job<DeliverJobData>>;
  /** Hands the queue back to the harness's deliver worker. */
  resume(): void;
  close(): Promise<void>;
}

/** The harness's deliver worker paused, and batches taken by the test, which runs them as it chooses. */
export async function takeOverDeliveries(
  harness: DeliveryHarness,
  options: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'> = {},
): Promise<ManualDeliveries> {
  const deliverWorker = harness.workers.workers.find((worker) => worker.name === queueNames.deliver)!;
  await deliverWorker.pause();
  const manual = new Worker(queueNames.deliver, null, {
    connection: harness.workers.context.redis,
    prefix: redisKeys.queuePrefix(harness.config.queuePrefix, queueNames.deliver),
    ...options,
  });
  return {
    manual,
    takeNext: (token) =>
      eventually(async () => {
        const next = await manual.getNextJob(token, { block: false });
        expect(next).toBeDefined();
        return next as Job<DeliverJobData>;
      }),
    resume: () => deliverWorker.resume(),
    async close() {
      deliverWorker.resume();
      await manual.close();
    },
  };
}

/** The models with MongoDB refusing every history insert, as a server that went away after the gateway answered. */
export function historyWritesRefused(models: Models): Models {
  return Object.create(models, {
    History: { value: { collection: { insertMany: () => Promise.reject(new Error('history write refused')) } } },
  }) as Models;
}

/** The error a run that must fail threw; a run that did not fail answers an error saying so. */
export function failureOf(run: Promise<unknown>): Promise<Error> {
  return run.then(
    () => new Error('the run did not fail'),
    (error: Error) => error,
  );
}
