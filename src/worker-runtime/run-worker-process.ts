import type { Processor } from 'bullmq';
import { loadConfig } from '../config.ts';
import { createLogger } from '../infra/logger.ts';
import type { QueueName } from '../queues/names.ts';
import { closeWorkerContext, createWorkerContext, type WorkerContext } from './worker-context.ts';
import { startWorker } from './start-worker.ts';

const shutdownGraceMs = 30_000;

function concurrencyFromEnv(queueName: QueueName, fallback: number): number {
  const name = `${queueName.toUpperCase().replace(/-/g, '_')}_CONCURRENCY`;
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

/**
 * The body of every worker entry in workers/: one queue per process, so each kind scales on its own.
 * SIGTERM stops taking jobs and lets active ones finish; past the grace period they are handed back
 * to the queue by BullMQ's stalled-job recovery.
 */
export async function runWorkerProcess(queueName: QueueName, buildProcessor: (context: WorkerContext) => Processor, defaultConcurrency: number): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config, `worker-${queueName}`);
  const context = await createWorkerContext(config, log);
  const worker = startWorker(context, queueName, buildProcessor(context), { concurrency: concurrencyFromEnv(queueName, defaultConcurrency) });
  log.info({ queue: queueName, concurrency: worker.concurrency }, 'worker started');
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'finishing active jobs');
      const forced = setTimeout(() => void worker.close(true), shutdownGraceMs);
      void worker
        .close()
        .then(() => clearTimeout(forced))
        .then(() => closeWorkerContext(context))
        .then(() => process.exit(0));
    });
  }
}
