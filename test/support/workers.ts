import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import type { QueueName } from '../../src/queues/names.ts';
import { closeWorkerContext, createWorkerContext, type WorkerContext } from '../../src/worker-runtime/worker-context.ts';
import { startWorker } from '../../src/worker-runtime/start-worker.ts';
import { processorFor } from '../../src/worker-runtime/processors.ts';

export interface TestWorkers {
  context: WorkerContext;
  close(): Promise<void>;
}

/** The real workers of the named queues, in-process, on the same database and key prefix as the test's ingress. */
export async function startTestWorkers(config: Config, queueNames: QueueName[], concurrency = 4): Promise<TestWorkers> {
  const context = await createWorkerContext(config, pino({ level: config.logLevel }));
  const workers = queueNames.map((queueName) => startWorker(context, queueName, processorFor(queueName)(context), { concurrency }));
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  return {
    context,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await closeWorkerContext(context);
    },
  };
}

/** Polls until the condition holds, for effects that are eventually visible (a worker's writes). */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
