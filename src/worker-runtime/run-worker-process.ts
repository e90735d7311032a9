import type { Processor } from 'bullmq';
import { loadConfig } from '../config.ts';
import { createLogger } from '../infra/logger.ts';
import type { QueueName } from '../queues/names.ts';
import { closeWorkerContext, createWorkerContext, type WorkerContext } from './worker-context.ts';
import { startWorker } from './start-worker.ts';

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

function optionalPositiveIntegerFromEnv(name: string): number | undefined {
  return process.env[name] ? positiveIntegerFromEnv(name, 1) : undefined;
}

/** DELIVER_CONCURRENCY, SEND_CONCURRENCY, TAG_UPDATE_CONCURRENCY, ... */
export function concurrencyVariable(queueName: QueueName): string {
  return `${queueName.toUpperCase().replace(/-/g, '_')}_CONCURRENCY`;
}

/**
 * The body of every worker entry in workers/: one queue per process, so each kind scales on its own and any number
 * of processes of one kind share its queue. SIGTERM stops taking jobs and lets active ones finish; a job still
 * running after WORKER_SHUTDOWN_GRACE_MS is abandoned with the process, and BullMQ's stalled-job recovery hands it
 * to another worker once its lock expires (WORKER_LOCK_DURATION_MS).
 */
export async function runWorkerProcess(
  queueName: QueueName,
  buildProcessor: (context: WorkerContext) => Processor,
  defaultConcurrency: number,
): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config, `worker-${queueName}`);
  const context = await createWorkerContext(config, log);
  const worker = startWorker(context, queueName, buildProcessor(context), {
    concurrency: positiveIntegerFromEnv(concurrencyVariable(queueName), defaultConcurrency),
    lockDurationMs: optionalPositiveIntegerFromEnv('WORKER_LOCK_DURATION_MS'),
    stalledIntervalMs: optionalPositiveIntegerFromEnv('WORKER_STALLED_INTERVAL_MS'),
  });
  const graceMs = positiveIntegerFromEnv('WORKER_SHUTDOWN_GRACE_MS', 30_000);
  log.info({ queue: queueName, concurrency: worker.concurrency, name: worker.opts.name }, 'worker started');
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal, graceMs }, 'finishing active jobs');
      const abandon = setTimeout(() => {
        log.warn({ graceMs }, 'active jobs did not finish in time; leaving them to stalled-job recovery');
        process.exit(1);
      }, graceMs);
      void worker
        .close()
        .then(() => closeWorkerContext(context))
        .then(() => {
          clearTimeout(abandon);
          process.exit(0);
        });
    });
  }
}
