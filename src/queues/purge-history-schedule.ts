import type { Queue } from 'bullmq';

export const purgeHistoryJobName = 'purge-history';
export const purgeHistoryEveryMs = 10 * 60 * 1000;

/** Idempotent: every process may call it at start-up and there is still one schedule. */
export async function schedulePurgeHistory(maintenance: Queue): Promise<void> {
  await maintenance.upsertJobScheduler(purgeHistoryJobName, { every: purgeHistoryEveryMs }, { name: purgeHistoryJobName });
}
