import type { Job } from 'bullmq';
import { isUnavailableError } from './unavailable.ts';
import { delayRun } from './delay-run.ts';

/** How long a send or a batch that met an unreachable MongoDB waits before it runs again. */
export const outageRetryDelayMs = 1000;

/**
 * A run that failed because MongoDB could not be reached waits and runs again without spending an attempt: the
 * attempts (and their backoff) would be gone within a minute, and the batch failed with its pushes unsent, so an
 * outage of any length only delays a send (CONTRACTS §1). Errors of any other kind go on to use the attempts. (The
 * workers' Redis commands wait for a reconnection rather than fail; a Redis error that does surface is treated alike.)
 */
export async function waitOutStorageOutage(job: Job, token: string | undefined, error: unknown): Promise<void> {
  if (token === undefined || !isUnavailableError(error)) return;
  await delayRun(job, token, outageRetryDelayMs);
}
