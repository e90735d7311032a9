import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { isUnavailableError } from './unavailable.ts';
import { delayRun } from './delay-run.ts';

/** How long a send or a batch that met an unreachable MongoDB waits before it runs again. */
export const outageRetryDelayMs = 1000;

/** A process warns of an outage at most once in this long, however many of its runs meet it. */
const outageWarningEveryMs = 10_000;
let lastOutageWarningAt = Number.NEGATIVE_INFINITY;

/**
 * A run that failed because MongoDB could not be reached waits and runs again without spending an attempt: the
 * attempts (and their backoff) would be gone within a minute, and the batch failed with its pushes unsent, so an
 * outage of any length only delays a send (CONTRACTS §1). Errors of any other kind go on to use the attempts. (The
 * workers' Redis commands wait for a reconnection rather than fail; a Redis error that does surface is treated alike.)
 * The worker's log says so, as the ingress's does for each 503, so that an operator sees why sends stand still.
 */
export async function waitOutStorageOutage(
  log: Logger,
  job: Job,
  token: string | undefined,
  error: unknown,
): Promise<void> {
  if (token === undefined || !isUnavailableError(error)) return;
  const now = Date.now();
  if (now - lastOutageWarningAt >= outageWarningEveryMs) {
    lastOutageWarningAt = now;
    log.warn({ err: error, queue: job.queueName, jobId: job.id }, 'backing store unavailable: the job runs again soon');
  }
  await delayRun(job, token, outageRetryDelayMs);
}
