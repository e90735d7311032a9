import type { Models } from '../models/index.ts';
import { recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed, type Rejection } from '../devices/mark-unsubscribed.ts';
import type { DeliverJobData, UnrecordedOutcomes } from '../queues/deliver.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import { renderPushes } from './rendered-push.ts';

/** A gateway call's outcomes in MongoDB: history for the sent pushes, the rejected tokens' devices unsubscribed. */
export async function recordOutcomes(
  models: Models,
  projectId: string,
  notification: PreparedNotification,
  outcomes: { sent: DeliveredPush[]; rejected: Rejection[]; at: Date },
): Promise<void> {
  await recordHistory(models, projectId, notification, outcomes.sent, outcomes.at);
  await markUnsubscribed(models, projectId, outcomes.rejected, outcomes.at);
}

/**
 * A previous run saved a gateway call's outcomes but stopped before writing them to MongoDB (the outage of a MongoDB
 * server, a kill): they are written now (both writes are idempotent), the sent pushes' content rendered again. The
 * tally in the job already counts them.
 */
export async function recordUnrecorded(
  { models, renderer }: { models: Models; renderer: RenderPool },
  batch: Pick<DeliverJobData, 'projectId' | 'devices'>,
  notification: PreparedNotification,
  unrecorded: UnrecordedOutcomes,
): Promise<void> {
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  const { rendered } = await renderPushes(
    renderer,
    batch.projectId,
    notification,
    unrecorded.sent.map((deviceId) => devices.get(deviceId)!),
    { alreadySent: true },
  );
  const sent = rendered.map(({ device, content }) => ({ deviceId: device.deviceId, content }));
  await recordOutcomes(models, batch.projectId, notification, {
    sent,
    rejected: unrecorded.rejected,
    at: new Date(unrecorded.at),
  });
}
