import type { Job, Processor } from 'bullmq';
import type { DeliverJobData } from '../queues/deliver.ts';
import { PreparedNotifications } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { DeliveryRun, type DeliverDeps, type DeliveryWorker } from './delivery-run.ts';

/** What the runs of one process share. */
export function deliveryWorker(deps: DeliverDeps): DeliveryWorker {
  return { deps, notifications: new PreparedNotifications(deps.models), limiter: new DeliveryRateLimiter(deps) };
}

/** The deliver queue's processor: each job is one run of a delivery batch (src/delivery/delivery-run.ts). */
export function deliverProcessor(deps: DeliverDeps, worker = deliveryWorker(deps)): Processor<DeliverJobData> {
  return (job, token) => new DeliveryRun(worker, job, token).run();
}

/**
 * A batch BullMQ failed unrun (its workers died under it too often): its devices not done are given up, counted failed
 * and kept for a replay, as its last attempt would have, so that its notification's stats add up.
 */
export function giveUpUnrunBatch(worker: DeliveryWorker, job: Job<DeliverJobData>): Promise<void> {
  return new DeliveryRun(worker, job, undefined).giveUp();
}
