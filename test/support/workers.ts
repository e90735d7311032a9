import type { Processor, Worker } from 'bullmq';
import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import { queueNames, type QueueName } from '../../src/queues/names.ts';
import { closeWorkerContext, createWorkerContext, type WorkerContext } from '../../src/worker-runtime/worker-context.ts';
import { startWorker } from '../../src/worker-runtime/start-worker.ts';
import { sendProcessor } from '../../src/delivery/fan-out.ts';
import { deliverProcessor } from '../../src/delivery/deliver-batch.ts';
import { maintenanceProcessor } from '../../src/maintenance/maintenance-processor.ts';

const processors: Partial<Record<QueueName, (context: WorkerContext) => Processor>> = {
  [queueNames.send]: (context) => sendProcessor(context),
  [queueNames.deliver]: deliverProcessor,
  [queueNames.maintenance]: maintenanceProcessor,
};

export interface TestWorkers {
  context: WorkerContext;
  workers: Worker[];
  close(): Promise<void>;
}

/** The real worker processors, running in the test process on the test's database and queue prefix. */
export async function startTestWorkers(config: Config, queues: QueueName[], concurrency = 4): Promise<TestWorkers> {
  const context = await createWorkerContext(config, pino({ level: config.logLevel }));
  const workers = queues.map((queue) => {
    const build = processors[queue];
    if (!build) throw new Error(`no processor for the ${queue} queue`);
    return startWorker(context, queue, build(context), { concurrency });
  });
  return {
    context,
    workers,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await closeWorkerContext(context);
    },
  };
}
