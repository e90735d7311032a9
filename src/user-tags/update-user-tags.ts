import type { Queue } from 'bullmq';
import { invalidRequest, unavailable } from '../http/api-error.ts';
import { JobFailedError, JobWaitTimeoutError, waitForJob } from '../queues/wait-for-job.ts';
import { tooManyTagsMessage } from '../devices/apply-tag-changes.ts';
import type { UserDeviceView } from '../schemas/user-tags.ts';
import { tagUpdateJobName, type TagUpdateJob, type TagUpdateResult } from './tag-update-job.ts';

const tagUpdateJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 500 },
  // Kept a while so a waiter that subscribes after the job finished still reads its result.
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 24 * 3600 },
};

/**
 * Queues the change and waits for the tag-update worker, so the answer shows the tags as they now are.
 * Past the bound the answer is 503, but the queued change is still applied.
 */
export async function updateUserTags(queue: Queue, timeoutMs: number, job: TagUpdateJob): Promise<UserDeviceView[]> {
  const added = await queue.add(tagUpdateJobName, job, tagUpdateJobOptions);
  let result: TagUpdateResult;
  try {
    result = await waitForJob<TagUpdateResult>(queue, added.id!, timeoutMs);
  } catch (error) {
    if (error instanceof JobWaitTimeoutError) {
      throw unavailable(`The tag change was queued but not confirmed within ${timeoutMs / 1000} s; it will still be applied. Read the devices again shortly.`);
    }
    if (error instanceof JobFailedError) throw unavailable('The tag change could not be applied because the database is unavailable; retry shortly.');
    throw error;
  }
  if ('overLimit' in result) {
    throw invalidRequest(
      tooManyTagsMessage,
      result.overLimit.map((device) => ({ path: '/tags', message: `would leave device "${device.deviceId}" with ${device.tagCount} tags` })),
    );
  }
  return result.devices;
}
