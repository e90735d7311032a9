import { DelayedError, type Job } from 'bullmq';

/**
 * Ends this run and moves the job to the delayed set, without spending an attempt; BullMQ then expects the
 * DelayedError thrown here.
 */
export async function delayRun(job: Job, token: string | undefined, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}
