import type { Processor } from 'bullmq';
import type { DeliverJobData } from '../queues/deliver.ts';
import { PreparedNotifications } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { DeliveryRun, type DeliverDeps, type DeliveryWorker } from './delivery-run.ts';

/** The deliver queue's processor: each job is one run of a delivery batch (src/delivery/delivery-run.ts). */
export function deliverProcessor(deps: DeliverDeps): Processor<DeliverJobData> {
  const worker: DeliveryWorker = {
    deps,
    notifications: new PreparedNotifications(deps.models),
    limiter: new DeliveryRateLimiter(deps),
  };
  return (job, token) => new DeliveryRun(worker, job, token).run();
}
