import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { QueueDefinition } from './queue-definition.ts';
import type { UpdateUserTagsBody, UserDeviceView } from '../schemas/user-tags.ts';

export interface TagUpdateJob extends UpdateUserTagsBody {
  projectId: string;
}

/**
 * The user's devices as they are after the change, the devices the change would take over the tag limit, or nothing
 * when the request that queued it withdrew it.
 */
export type TagUpdateResult =
  | { devices: UserDeviceView[] }
  | { overLimit: Array<{ deviceId: string; tagCount: number }> }
  | { withdrawn: true };

export const tagUpdateJobName = 'update-user-tags';

/**
 * A finished job is kept for as long as the request that queued it may wait (twice TAG_UPDATE_TIMEOUT_MS), which is
 * all its result is for: replaying it from the dashboard changes nothing. At 300 requests a second an hour's
 * retention held a million jobs, about a gigabyte of Redis; 20 s hold 6,000. Failed jobs stay a day to be replayed.
 */
function tagUpdateJobOptions(config: Pick<Config, 'tagUpdateTimeoutMs'>) {
  return {
    attempts: 3,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: { age: Math.ceil((2 * config.tagUpdateTimeoutMs) / 1000) },
    removeOnFail: { age: 24 * 3600 },
  };
}

/** Queues the change and answers its job id, whose result the caller waits for. */
export async function enqueueTagUpdate(deps: Pick<Deps, 'queues' | 'config'>, job: TagUpdateJob): Promise<string> {
  const added = await deps.queues.tagUpdate.add(tagUpdateJobName, job, tagUpdateJobOptions(deps.config));
  return added.id!;
}

/** Tags-by-user changes applied to every device of the user. */
export const tagUpdateQueue: QueueDefinition<'tag-update'> = {
  name: 'tag-update',
  // A job is a read and then a write, two round trips in turn: 8 in flight keep the database busy while each waits,
  // where 4 leave it idle between them; more than 8 gain nothing.
  defaultConcurrency: 8,
};
