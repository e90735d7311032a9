import type { Queue } from 'bullmq';
import type { QueueDefinition } from './queue-definition.ts';

export const flushCountsJobName = 'flush-gathered-counts';

/** How often the sweep flushes the counts that quiet projects left in Redis. */
export const flushCountsSweepEveryMs = 60 * 1000;

/** Idempotent: every worker process calls it at start-up and there is still one schedule per job. */
function schedule(maintenance: Queue, jobName: string, everyMs: number): Promise<unknown> {
  return maintenance.upsertJobScheduler(jobName, { every: everyMs }, { name: jobName });
}

/**
 * Jobs no worker runs any more: `purge-history` (the TTL index on history does its work) and `flush-event-counts`
 * (now flush-gathered-counts, which sweeps every kind of gathered counts). A schedule of them left in Redis would
 * only queue jobs that no worker takes, so every start removes them.
 */
async function retireOldSchedules(maintenance: Queue): Promise<void> {
  await maintenance.removeJobScheduler('purge-history');
  await maintenance.removeJobScheduler('flush-event-counts');
}

/**
 * Gathered counts wait in Redis until a record of the same project flushes them (at most once per their period); a
 * project that stops recording would keep its last counts there, out of MongoDB, with no end. This sweep flushes them.
 */
async function scheduleFlushCounts(maintenance: Queue): Promise<void> {
  await schedule(maintenance, flushCountsJobName, flushCountsSweepEveryMs);
}

/** Scheduled sweeps; no request queues anything here. */
export const maintenanceQueue: QueueDefinition<'maintenance'> = {
  name: 'maintenance',
  defaultConcurrency: 1,
  async schedule({ queues }) {
    await retireOldSchedules(queues.maintenance);
    await scheduleFlushCounts(queues.maintenance);
  },
};
