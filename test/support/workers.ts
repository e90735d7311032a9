import type { Worker } from 'bullmq';
import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import type { Deps } from '../../src/deps.ts';
import { closeDeps } from '../../src/open-deps.ts';
import { queueDefinition } from '../../src/queues/registry.ts';
import type { QueueName } from '../../src/infra/queue-names.ts';
import { openWorkerDeps } from '../../src/worker-runtime/worker-deps.ts';
import { startQueueWorker } from '../../src/worker-runtime/start-worker.ts';

export interface TestWorkers {
  context: Deps;
  workers: Worker[];
  close(): Promise<void>;
}

/** The real workers of the named queues, in-process, on the same database and key prefix as the test's ingress. */
export async function startTestWorkers(config: Config, queueNames: QueueName[], concurrency = 4): Promise<TestWorkers> {
  const context = await openWorkerDeps(config, pino({ level: config.logLevel }));
  const started = await Promise.all(
    queueNames.map((queueName) => startQueueWorker(context, queueDefinition(queueName), { concurrency })),
  );
  const workers = started.map(({ worker }) => worker);
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  return {
    context,
    workers,
    async close() {
      await Promise.all(started.map((queueWorker) => queueWorker.close()));
      await closeDeps(context);
    },
  };
}
