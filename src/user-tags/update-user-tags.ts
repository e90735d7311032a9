import type { Deps } from '../deps.ts';
import { invalidRequest, unavailable } from '../errors.ts';
import { JobFailedError, JobWaitTimeoutError, waitForJob } from '../queues/wait-for-job.ts';
import { tooManyTagsMessage } from '../devices/apply-tag-changes.ts';
import type { UserDeviceView } from '../schemas/user-tags.ts';
import { enqueueTagUpdate, type TagUpdateJob, type TagUpdateResult } from '../queues/tag-update.ts';
import { claimFate } from './tag-update-fate.ts';

type UserTagsDeps = Pick<Deps, 'queues' | 'redis' | 'config'>;

const notApplied = (seconds: number) =>
  unavailable(`The tag change could not be applied within ${seconds} s; nothing was changed. Retry shortly.`);

/**
 * The job's result, waiting at most timeoutMs; then the change is withdrawn, unless a worker has already begun it,
 * in which case its end is awaited as long again. Only a worker that died while applying it leaves the answer open.
 */
async function resultOf(deps: UserTagsDeps, jobId: string): Promise<TagUpdateResult> {
  const timeoutMs = deps.config.tagUpdateTimeoutMs;
  const seconds = timeoutMs / 1000;
  try {
    return await waitForJob<TagUpdateResult>(deps.queues.tagUpdate, jobId, timeoutMs);
  } catch (error) {
    if (error instanceof JobFailedError)
      throw unavailable('The tag change could not be applied because the database is unavailable; retry shortly.');
    if (!(error instanceof JobWaitTimeoutError)) throw error;
  }
  if ((await claimFate(deps, jobId, 'withdrawn')) === 'withdrawn') throw notApplied(seconds);
  try {
    return await waitForJob<TagUpdateResult>(deps.queues.tagUpdate, jobId, timeoutMs);
  } catch (error) {
    if (!(error instanceof JobWaitTimeoutError)) throw error;
    throw unavailable(
      `The tag change is being applied but was not confirmed within ${2 * seconds} s. Read the devices again shortly.`,
    );
  }
}

/** Queues the change and waits for the tag-update worker, so the answer shows the tags as they now are. */
export async function updateUserTags(deps: UserTagsDeps, job: TagUpdateJob): Promise<UserDeviceView[]> {
  const result = await resultOf(deps, await enqueueTagUpdate(deps, job));
  if ('withdrawn' in result) throw notApplied(deps.config.tagUpdateTimeoutMs / 1000);
  if ('overLimit' in result) {
    throw invalidRequest(
      tooManyTagsMessage,
      result.overLimit.map((device) => ({
        path: '/tags',
        message: `would leave device "${device.deviceId}" with ${device.tagCount} tags`,
      })),
    );
  }
  return result.devices;
}
