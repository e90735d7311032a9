import type { Job } from 'bullmq';

/**
 * Whether an earlier run of this job may have stopped without saving its progress. BullMQ counts every attempt that
 * ended (threw, or finished and was replayed from the dashboard) in attemptsMade, and every recovery of a run whose
 * worker died or lost its lock in stalledCounter; both live in the job's own hash, so they go when the job does. The
 * delays of pacing and retry rounds (moveToDelayed) count in neither: the rounds of a batch never interrupted are not
 * taken for interrupted runs. Once raised, the counts stay: every later run of an interrupted job is taken for one.
 * `attemptsEndedClean` are the attempts the job says it ended itself with its progress saved (a delivery batch whose
 * gateway asked to retry through every round): those interrupted nothing.
 */
export function mayFollowAnInterruptedRun(
  job: Pick<Job, 'attemptsMade' | 'stalledCounter'>,
  attemptsEndedClean = 0,
): boolean {
  return job.attemptsMade > attemptsEndedClean || job.stalledCounter > 0;
}

/** Whether this run is the job's last attempt: a failure now is final, unless replayed from the dashboard. */
export function isLastAttempt(job: Pick<Job, 'attemptsMade' | 'opts'>): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
