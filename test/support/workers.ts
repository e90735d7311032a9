import type { Worker } from 'bullmq';
import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import type { QueueName } from '../../src/queues/names.ts';
import {
  closeWorkerContext,
  createWorkerContext,
  type WorkerContext,
} from '../../src/worker-runtime/worker-context.ts';
import { startWorker } from '../../src/worker-runtime/start-worker.ts';
import { processorFor } from '../../src/worker-runtime/processors.ts';

export interface TestWorkers {
  context: WorkerContext;
  workers: Worker[];
  close(): Promise<void>;
}

/** The real workers of the named queues, in-process, on the same database and key prefix as the test's ingress. */
export async function startTestWorkers(config: Config, queueNames: QueueName[], concurrency = 4): Promise<TestWorkers> {
  const context = await createWorkerContext(config, pino({ level: config.logLevel }));
  const workers = queueNames.map((queueName) =>
    startWorker(context, queueName, processorFor(queueName)(context), { concurrency }),
  );
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  return {
    context,
    workers,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await closeWorkerContext(context);
    },
  };
}
