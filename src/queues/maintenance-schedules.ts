import type { Queue } from 'bullmq';

export const purgeHistoryJobName = 'purge-history';
export const purgeHistoryEveryMs = 10 * 60 * 1000;

export const flushEventCountsJobName = 'flush-event-counts';
export const flushEventCountsEveryMs = 60 * 1000;

/** Idempotent: every process may call it at start-up and there is still one schedule per job. */
function schedule(maintenance: Queue, jobName: string, everyMs: number): Promise<unknown> {
  return maintenance.upsertJobScheduler(jobName, { every: everyMs }, { name: jobName });
}

export async function schedulePurgeHistory(maintenance: Queue): Promise<void> {
  await schedule(maintenance, purgeHistoryJobName, purgeHistoryEveryMs);
}

/**
 * Event counts wait in Redis until an event of the same project flushes them (at most every few seconds); a project
 * that stops sending events would keep its last counts there, out of MongoDB, with no end. This sweep flushes them.
 */
export async function scheduleFlushEventCounts(maintenance: Queue): Promise<void> {
  await schedule(maintenance, flushEventCountsJobName, flushEventCountsEveryMs);
}
