import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { tagUpdateJobName, type TagUpdateJob } from './tag-update-job.ts';
import { applyUserTags } from './apply-user-tags.ts';

export function tagUpdateProcessor(context: Pick<WorkerContext, 'models' | 'redis' | 'config'>): Processor {
  const deps = { models: context.models, redis: context.redis, queuePrefix: context.config.queuePrefix };
  return async (job: Job<TagUpdateJob>) => {
    if (job.name !== tagUpdateJobName) throw new Error(`unknown tag-update job "${job.name}"`);
    return applyUserTags(deps, job.data);
  };
}
