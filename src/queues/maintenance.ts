import type { Queue } from 'bullmq';
import type { QueueDefinition } from './queue-definition.ts';

export const flushEventCountsJobName = 'flush-event-counts';

/**
 * How often a project's own events flush its pending counts into MongoDB, and how often the maintenance sweep flushes
 * those of projects that stopped sending events.
 */
export const flushEventCountsEveryMs = 60 * 1000;

/** Idempotent: every worker process calls it at start-up and there is still one schedule per job. */
function schedule(maintenance: Queue, jobName: string, everyMs: number): Promise<unknown> {
  return maintenance.upsertJobScheduler(jobName, { every: everyMs }, { name: jobName });
}

/**
 * No worker runs `purge-history` (the TTL index on history does its work): a schedule of it left in Redis would only
 * queue jobs that no worker takes, so every start removes it.
 */
async function retireHistoryPurge(maintenance: Queue): Promise<void> {
  await maintenance.removeJobScheduler('purge-history');
}

/**
 * Event counts wait in Redis until an event of the same project flushes them (at most once a minute); a project
 * that stops sending events would keep its last counts there, out of MongoDB, with no end. This sweep flushes them.
 */
async function scheduleFlushEventCounts(maintenance: Queue): Promise<void> {
  await schedule(maintenance, flushEventCountsJobName, flushEventCountsEveryMs);
}

/** Scheduled sweeps; no request queues anything here. */
export const maintenanceQueue: QueueDefinition<'maintenance'> = {
  name: 'maintenance',
  defaultConcurrency: 1,
  async schedule({ queues }) {
    await retireHistoryPurge(queues.maintenance);
    await scheduleFlushEventCounts(queues.maintenance);
  },
};
