import { Job, type Queue } from 'bullmq';

export class JobWaitTimeoutError extends Error {
  constructor(jobId: string, timeoutMs: number) {
    super(`job ${jobId} did not finish within ${timeoutMs} ms`);
    this.name = 'JobWaitTimeoutError';
  }
}

export class JobFailedError extends Error {
  constructor(jobId: string, reason: string) {
    super(`job ${jobId} failed: ${reason}`);
    this.name = 'JobFailedError';
  }
}

/**
 * The return value of a job once a worker has finished it. Polls the job's state over the caller's own connection
 * instead of listening with QueueEvents, whose blocking connection cannot be closed while Redis is away; the delay
 * between polls grows from 5 to 50 ms, so a quick job is answered quickly and a slow one costs little.
 */
export async function waitForJob<T>(queue: Queue, jobId: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delayMs = 5;
  for (;;) {
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await Job.fromId<unknown, T>(queue, jobId);
      if (!job) throw new Error(`job ${jobId} was removed before its result was read`);
      if (state === 'failed') throw new JobFailedError(jobId, job.failedReason);
      return job.returnvalue;
    }
    if (Date.now() + delayMs > deadline) throw new JobWaitTimeoutError(jobId, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 50);
  }
}
