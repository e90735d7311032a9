import type { Deps } from '../deps.ts';
import type { Rejection } from '../devices/mark-unsubscribed.ts';
import type { DeliverJobData, DeviceFailure } from '../queues/deliver.ts';
import { writeDeliveryLog, type DeliveryLogEntry } from './delivery-log.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { deviceUnsubscribed, messageFailed } from '../webhooks/webhook-events.ts';

export interface ReportedOutcomes {
  sent: string[];
  rejected: Rejection[];
  failed: DeviceFailure[];
  at: Date;
}

/**
 * What a gateway call's outcomes tell the customer: one delivery-log entry per device (one insertMany), and
 * message.failed and device.unsubscribed for the endpoints subscribed to them (one addBulk, none without such an
 * endpoint). Only queued here: the webhook worker makes the calls, so no receiver slows a send.
 */
export async function reportOutcomes(
  deps: Pick<Deps, 'models' | 'queues'>,
  batch: Pick<DeliverJobData, 'projectId' | 'notificationId' | 'devices'>,
  outcomes: ReportedOutcomes,
): Promise<void> {
  const { notificationId } = batch;
  const { at } = outcomes;
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  const platform = (deviceId: string) => devices.get(deviceId)?.platform ?? 'unknown';
  const entry = (deviceId: string, outcome: DeliveryLogEntry['outcome'], reason?: string): DeliveryLogEntry => ({
    deviceId,
    platform: platform(deviceId),
    outcome,
    ...(reason !== undefined && { reason }),
  });
  await writeDeliveryLog(deps.models, notificationId, at, [
    ...outcomes.sent.map((deviceId) => entry(deviceId, 'sent')),
    ...outcomes.failed.map(({ deviceId, reason }) => entry(deviceId, 'failed', reason)),
    ...outcomes.rejected.map(({ deviceId, reason }) => entry(deviceId, 'unsubscribed', reason)),
  ]);
  await publishWebhookEvents(deps, batch.projectId, [
    ...outcomes.failed.map(({ deviceId, reason }) => messageFailed(notificationId, deviceId, reason, at)),
    ...outcomes.rejected.map(({ deviceId, reason }) =>
      deviceUnsubscribed(
        notificationId,
        { deviceId, userId: devices.get(deviceId)?.userId ?? null, platform: platform(deviceId), reason },
        at,
      ),
    ),
  ]);
}
