import type { Job } from 'bullmq';
import { recordDeliveryMetrics } from '../metrics/delivery-metrics.ts';
import type { DeliverJobData, UnrecordedOutcomes } from '../queues/deliver.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { BatchProgress } from './batch-progress.ts';
import { recordUnrecorded } from './record-outcomes.ts';
import { latestBatchData } from '../queues/deliver-call-progress.ts';

/**
 * The last attempt failed, or BullMQ failed the batch unrun: the devices still pending by the progress saved in the job count as failed, so that the
 * notification's stats add up, and are kept as given up, for a replay to try again. Outcomes a run saved but did not
 * write to MongoDB are written now if they can be, and else kept for the replay to write.
 */
export async function giveUpBatch(worker: DeliveryWorker, job: Job<DeliverJobData>): Promise<void> {
  job.data = latestBatchData(job);
  const unrecorded = await writeLeftUnrecorded(worker, job.data);
  const tally = await new BatchProgress(worker.deps, job).giveUp(unrecorded);
  await recordDeliveryMetrics(worker.deps, job.data.gateway, tally.takeUnreported());
}

/** The outcomes still unwritten after trying to write those a run left: none, or all of them. */
async function writeLeftUnrecorded(
  worker: DeliveryWorker,
  data: DeliverJobData,
): Promise<UnrecordedOutcomes | undefined> {
  const { unrecorded, notificationId } = data;
  if (!unrecorded) return undefined;
  try {
    const notification = await worker.notifications.get(notificationId, data.variant);
    if (notification) await recordUnrecorded(worker, data, notification, unrecorded);
    return undefined;
  } catch {
    return unrecorded;
  }
}
