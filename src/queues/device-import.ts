import type { Deps } from '../deps.ts';
import { resumableStalls, type QueueDefinition } from './queue-definition.ts';

export interface DeviceImportJobData {
  projectId: string;
  importId: string;
}

export const deviceImportJobName = 'device-import';

/**
 * One job per import, under the import's id, so an import is never queued twice. A run resumes from the import's
 * checkpoint, so a retry or a stalled job costs only time; a failed one stays a week to be replayed.
 */
export async function enqueueDeviceImport(deps: Pick<Deps, 'queues'>, job: DeviceImportJobData): Promise<void> {
  await deps.queues.deviceImport.add(deviceImportJobName, job, {
    jobId: job.importId,
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  });
}

/** Device files uploaded to POST /device-imports, applied in batches. */
export const deviceImportQueue: QueueDefinition<'device-import'> = {
  name: 'device-import',
  // An import is a stream of bulk writes, each waiting on the database: two at once keep it busy, more would only
  // let one project's import crowd out another's writes.
  defaultConcurrency: 2,
  maxStalledCount: resumableStalls,
};
