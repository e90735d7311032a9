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

const tagUpdateJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 500 },
  // Kept a while so a waiter that subscribes after the job finished still reads its result.
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 24 * 3600 },
};

/** Queues the change and answers its job id, whose result the caller waits for. */
export async function enqueueTagUpdate(deps: Pick<Deps, 'queues'>, job: TagUpdateJob): Promise<string> {
  const added = await deps.queues.tagUpdate.add(tagUpdateJobName, job, tagUpdateJobOptions);
  return added.id!;
}

/** Tags-by-user changes applied to every device of the user. */
export const tagUpdateQueue: QueueDefinition<'tag-update'> = {
  name: 'tag-update',
  // A job is a read and then a write, two round trips in turn: 8 in flight served tags by user at 276-312 req/s
  // against 242-289 with 4, alternated (docs/performance.md); 16 and 32, tried earlier against 4, did no better.
  defaultConcurrency: 8,
  async processor(deps) {
    const { tagUpdateProcessor } = await import('../user-tags/tag-update-processor.ts');
    return { process: tagUpdateProcessor(deps) };
  },
};
