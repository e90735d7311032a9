import type { Job } from 'bullmq';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** The run's job is no longer its own: stalled-job recovery handed it to another run. */
export class LostLockError extends Error {
  constructor(jobId: string) {
    super(`the lock of job ${jobId} is no longer this run's: another run has it`);
    this.name = 'LostLockError';
  }
}

/**
 * Throws LostLockError when the job's lock no longer holds this run's token. BullMQ renews locks in the background and
 * only reports a renewal that failed, so a run whose lock lapsed (Redis away, or the process frozen, for longer than
 * the lock lasts) goes on beside the run that stalled-job recovery started in its place. Checked before each gateway
 * call, the two send at most the call then in flight twice.
 */
export async function assertLockHeld(redis: Deps['redis'], job: Job, token: string | undefined): Promise<void> {
  if (token === undefined) return;
  const holder = await redis.get(redisKeys.jobLock(job.queueQualifiedName, job.id!));
  if (holder !== token) throw new LostLockError(job.id!);
}
