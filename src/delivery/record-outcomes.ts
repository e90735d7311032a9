import type { Deps } from '../deps.ts';
import { recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed } from '../devices/mark-unsubscribed.ts';
import type { DeliverJobData, DeviceFailure, Rejection, UnrecordedOutcomes } from '../queues/deliver.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import { renderPushes } from './rendered-push.ts';
import { reportOutcomes } from './report-outcomes.ts';

type RecordedBatch = Pick<DeliverJobData, 'projectId' | 'notificationId' | 'devices'>;

/**
 * A gateway call's outcomes in MongoDB: history for the sent pushes (the delivery log's sent entries), the rejected
 * tokens' devices unsubscribed; then the delivery log of the others and the webhook events (reportOutcomes). Every write is idempotent, so a rerun may repeat them all.
 */
export async function recordOutcomes(
  deps: Pick<Deps, 'models' | 'queues'>,
  batch: RecordedBatch,
  notification: PreparedNotification,
  outcomes: { sent: DeliveredPush[]; rejected: Rejection[]; failed: DeviceFailure[]; at: Date },
): Promise<void> {
  await recordHistory(deps.models, batch.projectId, notification, outcomes.sent, outcomes.at);
  await markUnsubscribed(deps.models, batch.projectId, outcomes.rejected, outcomes.at);
  await reportOutcomes(deps, batch, outcomes);
}

/**
 * A previous run saved a gateway call's outcomes but stopped before writing them to MongoDB (the outage of a MongoDB
 * server, a kill): they are written now (both writes are idempotent), the sent pushes' content rendered again. The
 * tally in the job already counts them.
 */
export async function recordUnrecorded(
  deps: Pick<Deps, 'models' | 'queues' | 'renderer'>,
  batch: RecordedBatch,
  notification: PreparedNotification,
  unrecorded: UnrecordedOutcomes,
): Promise<void> {
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  const { rendered } = await renderPushes(
    deps.renderer,
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
  await recordOutcomes(deps, batch, notification, {
    sent,
    rejected: unrecorded.rejected,
    failed: unrecorded.failed ?? [],
    at: new Date(unrecorded.at),
  });
}
