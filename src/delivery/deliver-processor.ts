import type { Processor } from 'bullmq';
import type { DeliverJobData } from '../queues/deliver.ts';
import { deliveryWorker, type DeliverDeps } from './delivery-worker.ts';
import { DeliveryRun } from './delivery-run.ts';
import { latestBatchData } from '../queues/deliver-call-progress.ts';

/** The deliver queue's processor: each job is one run of a delivery batch (DeliveryRun). */
export function deliverProcessor(deps: DeliverDeps, worker = deliveryWorker(deps)): Processor<DeliverJobData> {
  return (job, token) => {
    // The progress a run saved after a gateway call counts as saved in the data.
    job.data = latestBatchData(job);
    return new DeliveryRun(worker, job, token).run();
  };
}
