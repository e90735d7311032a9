import { recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed } from '../devices/mark-unsubscribed.ts';
import type { DeliverJobData, DeviceFailure, Rejection, UnrecordedOutcomes } from '../queues/deliver.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import { renderPushes } from './rendered-push.ts';
import { logUnsent, publishOutcomeEvents, type ReportedBatch, type ReportedOutcomes } from './report-outcomes.ts';
import type { Deps } from '../deps.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { recordTouches } from '../conversions/touches.ts';

type RecordedBatch = Pick<DeliverJobData, 'projectId' | 'notificationId' | 'devices'>;

/**
 * The sent pushes as their devices' (and users') last pushes, which conversions are credited to (CONTRACTS §19): only
 * for a project that counts a conversion from the send, so that other projects' pushes write nothing more.
 */
async function recordSentTouches(
  worker: DeliveryWorker,
  batch: RecordedBatch,
  sent: DeliveredPush[],
  at: Date,
): Promise<void> {
  const settings = await worker.settings.get(batch.projectId);
  if (!settings?.conversions.some((conversion) => conversion.attribution === 'send')) return;
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  const touches = sent.map(({ deviceId }) => {
    const { userId, variant } = devices.get(deviceId) ?? {};
    return { notificationId: batch.notificationId, deviceId, userId, at: at.getTime(), ...(variant && { variant }) };
  });
  await recordTouches(worker.deps, batch.projectId, 'send', touches);
}

/**
 * Outcomes in MongoDB: history for the sent pushes (the delivery log's sent entries), the rejected tokens' devices
 * unsubscribed, the delivery log of the others; then the webhook events, once the devices they name are written
 * (publishOutcomeEvents). The writes go to different collections and every one is idempotent, so they go together,
 * each joining the process's other calls' (micro-batched), not three in turn. A run writes each call's sent pushes,
 * and hands its refused devices off to be written with its notification's other runs' (UnwrittenRefusals). A rerun
 * may repeat them all.
 */
export async function recordOutcomes(
  worker: DeliveryWorker,
  batch: RecordedBatch,
  notification: PreparedNotification,
  outcomes: { sent: DeliveredPush[]; rejected: Rejection[]; failed: DeviceFailure[]; at: Date },
): Promise<void> {
  await Promise.all([
    recordSentTouches(worker, batch, outcomes.sent, outcomes.at),
    recordHistory(worker.deps.models, batch.projectId, notification, outcomes.sent, outcomes.at),
    recordRefusals(worker.deps, batch, outcomes),
  ]);
}

/**
 * Refused devices in MongoDB: the rejected tokens' devices unsubscribed and the delivery log of all, together; then
 * their webhook events, once the devices they name are written.
 */
export async function recordRefusals(
  deps: Pick<Deps, 'models' | 'redis' | 'config' | 'log' | 'queues'>,
  batch: ReportedBatch,
  refusals: ReportedOutcomes,
): Promise<void> {
  await Promise.all([
    markUnsubscribed(deps, batch.projectId, refusals.rejected, refusals.at),
    logUnsent(deps, batch, refusals),
  ]);
  await publishOutcomeEvents(deps, batch, refusals);
}

/**
 * A previous run saved a gateway call's outcomes but stopped before writing them to MongoDB (the outage of a MongoDB
 * server, a kill): they are written now (both writes are idempotent), the sent pushes' content rendered again. The
 * tally in the job already counts them.
 */
export async function recordUnrecorded(
  worker: DeliveryWorker,
  batch: RecordedBatch,
  notification: PreparedNotification,
  unrecorded: UnrecordedOutcomes,
): Promise<void> {
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  const { rendered } = await renderPushes(
    worker.deps.renderer,
    batch.projectId,
    notification,
    unrecorded.sent.map((deviceId) => devices.get(deviceId)!),
    { alreadySent: true },
  );
  const sent = rendered.map(({ device, content }) => ({
    deviceId: device.deviceId,
    platform: device.platform,
    content,
  }));
  await recordOutcomes(worker, batch, notification, {
    sent,
    rejected: unrecorded.rejected,
    failed: unrecorded.failed ?? [],
    at: new Date(unrecorded.at),
  });
}
