import type { Job, ParentOptions } from 'bullmq';
import type { Deps } from '../deps.ts';
import { deliverJobOptions } from './deliver.ts';

/** Writes the refused devices that a notification's delivery runs handed off (delivery/handed-refusals.ts). */
export interface RefusalWritesJobData {
  projectId: string;
  notificationId: string;
}

const jobNamePrefix = 'refusals:';

/**
 * How long a hand-off waits before its write: the other runs of its notification that refuse devices meanwhile join
 * it, so that their unsubscribes go in one write of many devices rather than one per run.
 */
export const refusalWritesDelayMs = 1000;

export const isRefusalWritesJob = (job: Pick<Job, 'name'>) => job.name.startsWith(jobNamePrefix);

/**
 * A delayed job on the deliver queue, whose workers write delivery outcomes, under the batch's own parent: the send
 * completes only once its refusals are written. `jobId` is the hand-off's, so a hand-off made again queues nothing more.
 */
export async function enqueueRefusalWrites(
  deps: Pick<Deps, 'queues'>,
  jobId: string,
  data: RefusalWritesJobData,
  parent: ParentOptions | undefined,
): Promise<void> {
  await deps.queues.deliver.add(`${jobNamePrefix}${data.notificationId}`, data, {
    ...deliverJobOptions,
    jobId,
    delay: refusalWritesDelayMs,
    ...(parent && { parent }),
  });
}
