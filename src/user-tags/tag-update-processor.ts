import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { tagUpdateJobName, type TagUpdateJob } from './tag-update-job.ts';
import { applyUserTags, userDeviceViews } from './apply-user-tags.ts';

const appliedMarkerSeconds = 30 * 24 * 3600;

/**
 * A tag update that completed is marked as applied. Replaying it from the dashboard later then changes nothing:
 * applying it again would overwrite whatever the user's tags became since.
 */
export function tagUpdateProcessor(context: Pick<WorkerContext, 'models' | 'redis' | 'config'>): Processor {
  const deps = { models: context.models, redis: context.redis, queuePrefix: context.config.queuePrefix };
  return async (job: Job<TagUpdateJob>) => {
    if (job.name !== tagUpdateJobName) throw new Error(`unknown tag-update job "${job.name}"`);
    const appliedKey = `${deps.queuePrefix}:tag-update:applied:${job.id}`;
    if ((await deps.redis.exists(appliedKey)) === 1) return { devices: await userDeviceViews(deps.models, job.data) };
    const result = await applyUserTags(deps, job.data);
    await deps.redis.set(appliedKey, '1', 'EX', appliedMarkerSeconds);
    return result;
  };
}
