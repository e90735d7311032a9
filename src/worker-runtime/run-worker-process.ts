import { loadConfig } from '../config.ts';
import { StartUpError, startProcess } from '../infra/start-up-error.ts';
import { createLogger } from '../infra/logger.ts';
import { closeDeps } from '../open-deps.ts';
import { onStopSignals } from '../infra/stop-signals.ts';
import { queueDefinition } from '../queues/registry.ts';
import type { QueueName } from '../infra/queue-names.ts';
import { openWorkerDeps } from './worker-deps.ts';
import { startQueueWorker } from './start-worker.ts';

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new StartUpError(`${name} must be a positive whole number, got "${process.env[name]}"`);
  return value;
}

function optionalPositiveIntegerFromEnv(name: string): number | undefined {
  return process.env[name] ? positiveIntegerFromEnv(name, 1) : undefined;
}

/** DELIVER_CONCURRENCY, SEND_CONCURRENCY, TAG_UPDATE_CONCURRENCY, ... */
function concurrencyVariable(queueName: QueueName): string {
  return `${queueName.toUpperCase().replace(/-/g, '_')}_CONCURRENCY`;
}

/** The jobs a worker process of the queue runs at once: its <QUEUE>_CONCURRENCY, else the queue's default. */
export function workerConcurrency(queueName: QueueName): number {
  return positiveIntegerFromEnv(concurrencyVariable(queueName), queueDefinition(queueName).defaultConcurrency);
}

/**
 * The body of every worker entry in workers/: one queue per process, found by name in queueRegistry, so
 * each kind scales on its own and any number of processes of one kind share its queue. SIGTERM stops taking jobs
 * and lets active ones finish; a job still running after WORKER_SHUTDOWN_GRACE_MS is abandoned with the process,
 * and BullMQ's stalled-job recovery hands it to another worker once its lock expires (WORKER_LOCK_DURATION_MS).
 */
export function runWorkerProcess(queueName: QueueName): Promise<void> {
  return startProcess(`worker-${queueName}`, () => startWorkerProcess(queueName));
}

async function startWorkerProcess(queueName: QueueName): Promise<void> {
  const definition = queueDefinition(queueName);
  const config = loadConfig();
  // Every setting is read before any server is reached: a bad one is said at once, whatever answers.
  const options = {
    concurrency: workerConcurrency(queueName),
    lockDurationMs: optionalPositiveIntegerFromEnv('WORKER_LOCK_DURATION_MS'),
    stalledIntervalMs: optionalPositiveIntegerFromEnv('WORKER_STALLED_INTERVAL_MS'),
  };
  const graceMs = positiveIntegerFromEnv('WORKER_SHUTDOWN_GRACE_MS', 30_000);
  const log = createLogger(config, `worker-${queueName}`);
  const deps = await openWorkerDeps(config, log);
  const { worker, close } = await startQueueWorker(deps, definition, options);
  log.info({ queue: queueName, concurrency: worker.concurrency, name: worker.opts.name }, 'worker started');
  onStopSignals(log, (signal) => {
    log.info({ signal, graceMs }, 'finishing active jobs (Ctrl-C again exits at once)');
    const abandon = setTimeout(() => {
      log.warn({ graceMs }, 'active jobs did not finish in time; leaving them to stalled-job recovery');
      process.exit(1);
    }, graceMs);
    void close()
      .then(() => closeDeps(deps))
      .then(() => {
        clearTimeout(abandon);
        process.exit(0);
      });
  });
}
