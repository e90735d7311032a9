import type { Job } from 'bullmq';
import type { DeliverJobData } from '../queues/deliver.ts';
import type { Deps } from '../deps.ts';
import { noteWaiting } from '../queues/waiting-pushes.ts';
import { delayRun } from '../infra/delay-run.ts';
import type { BatchProgress } from './batch-progress.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import { callSizeAtRate, reserveAtRate } from './delivery-rate-limiter.ts';

const perSecond = (notification: PreparedNotification) => {
  const perMinute = notification.timing.throttlePerMinute;
  return perMinute === undefined ? null : perMinute / 60;
};

/** The size of a gateway call under both the project's delivery rate and the send's throttle. */
export async function pacedCallSize(
  worker: DeliveryWorker,
  batch: Pick<DeliverJobData, 'projectId'>,
  notification: PreparedNotification,
  largest: number,
): Promise<number> {
  return callSizeAtRate(perSecond(notification), await worker.limiter.callSize(batch.projectId, largest));
}

/**
 * Takes a gateway call's messages from the send's throttle (throttlePerMinute, one budget in Redis for every deliver
 * worker) and then from the project's delivery rate, which applies on top; answers 0, or how long to wait. The send's
 * budget goes first: taken when the project's then says wait, it only slows the send further, never lets out more.
 */
export async function reserveCall(
  worker: DeliveryWorker,
  batch: Pick<DeliverJobData, 'projectId'>,
  notification: PreparedNotification,
  messages: number,
): Promise<number> {
  const rate = perSecond(notification);
  if (rate !== null) {
    const key = redisKeys.sendThrottle(worker.deps.config.queuePrefix, batch.projectId, notification.id);
    const waitMs = await reserveAtRate(worker.deps.redis, key, rate, messages);
    if (waitMs > 0) return waitMs;
  }
  return worker.limiter.reserve(batch.projectId, messages);
}

/**
 * Ends the batch's run to wait for its throttle as a delayed job (delayRun), its devices not yet done noted as
 * waiting until the delay ends.
 */
export async function waitForThrottle(
  deps: Pick<Deps, 'redis' | 'config'>,
  job: Job<DeliverJobData>,
  token: string | undefined,
  progress: BatchProgress,
  delayMs: number,
): Promise<never> {
  const devices = job.data.devices.filter((device) => !progress.isDone(device.deviceId)).length;
  const { projectId, notificationId } = job.data;
  await noteWaiting(deps, projectId, notificationId, [
    { jobId: job.id!, devices, reason: 'throttle', at: Date.now() + delayMs },
  ]);
  return delayRun(job, token, delayMs);
}
