import type { Job, Processor } from 'bullmq';
import type { DeliverJobData } from '../queues/deliver.ts';
import { deliveryWorker, type DeliverDeps, type DeliveryWorker } from './delivery-worker.ts';
import { isRefusalWritesJob, type RefusalWritesJobData } from '../queues/refusal-writes.ts';
import { writeHandedRefusals } from './handed-refusals.ts';
import { waitOutStorageOutage } from '../infra/storage-outages.ts';
import { DeliveryRun } from './delivery-run.ts';
import { latestBatchData } from '../queues/deliver-call-progress.ts';

/**
 * The deliver queue's processor: each job is one run of a delivery batch (DeliveryRun), or the writes of refused
 * devices its runs handed off (writeHandedRefusals).
 */
export function deliverProcessor(deps: DeliverDeps, worker = deliveryWorker(deps)): Processor<DeliverJobData> {
  return (job, token) => {
    if (isRefusalWritesJob(job)) return writeRefusals(worker, job as Job<unknown> as Job<RefusalWritesJobData>, token);
    // The progress a run saved after a gateway call counts as saved in the data.
    job.data = latestBatchData(job);
    return new DeliveryRun(worker, job, token).run();
  };
}

async function writeRefusals(
  worker: DeliveryWorker,
  job: Job<RefusalWritesJobData>,
  token: string | undefined,
): Promise<void> {
  try {
    await writeHandedRefusals(worker, job);
  } catch (error) {
    // As a batch's run: an outage of MongoDB delays the writes rather than spending their attempts.
    await waitOutStorageOutage(worker.deps.log, job, token, error);
    throw error;
  }
}
