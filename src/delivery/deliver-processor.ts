import type { Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import type { DeliverJobData } from '../queues/deliver.ts';
import { PreparedNotifications } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { DeliveryRun, type DeliveryWorker } from './delivery-run.ts';

/** The deliver queue's processor: each job is one run of a delivery batch (src/delivery/delivery-run.ts). */
export function deliverProcessor(context: WorkerContext): Processor<DeliverJobData> {
  const worker: DeliveryWorker = {
    context,
    notifications: new PreparedNotifications(context.models),
    limiter: new DeliveryRateLimiter(context),
  };
  return (job, token) => new DeliveryRun(worker, job, token).run();
}
