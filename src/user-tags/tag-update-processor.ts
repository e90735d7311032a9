import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import { tagUpdateJobName, type TagUpdateJob, type TagUpdateResult } from '../queues/tag-update.ts';
import { applyUserTags, userDeviceViews } from './apply-user-tags.ts';
import { claimFate, markApplied } from './tag-update-fate.ts';

/** Applies a queued tag update unless it was withdrawn or already applied (a replay); a retried run applies it again. */
export function tagUpdateProcessor(deps: Pick<Deps, 'models' | 'redis' | 'queues'>): Processor {
  return async (job: Job<TagUpdateJob>): Promise<TagUpdateResult> => {
    if (job.name !== tagUpdateJobName) throw new Error(`unknown tag-update job "${job.name}"`);
    const fate = await claimFate(deps, job.id!, 'applying');
    if (fate === 'withdrawn') return { withdrawn: true };
    if (fate === 'applied') return { devices: await userDeviceViews(deps.models, job.data) };
    const result = await applyUserTags(deps.models, job.data);
    await markApplied(deps, job.id!);
    return result;
  };
}
