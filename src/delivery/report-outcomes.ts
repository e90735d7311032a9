import type { Deps } from '../deps.ts';
import type { BatchDevice, DeliverJobData, DeviceFailure, Rejection } from '../queues/deliver.ts';
import { writeDeliveryLog, type DeliveryLogEntry } from './delivery-log.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { deviceUnsubscribed, messageFailed } from '../webhooks/webhook-events.ts';

/** What a report names of a device: its writes need no more, and a hand-off keeps no more (handed-refusals.ts). */
export type ReportedDevice = Pick<BatchDevice, 'deviceId' | 'platform' | 'userId'>;

export type ReportedBatch = Pick<DeliverJobData, 'projectId' | 'notificationId'> & { devices: ReportedDevice[] };

export interface ReportedOutcomes {
  rejected: Rejection[];
  failed: DeviceFailure[];
  at: Date;
}

const logEntry = (
  deviceId: string,
  platform: string,
  outcome: DeliveryLogEntry['outcome'],
  reason?: string,
): DeliveryLogEntry => ({ deviceId, platform, outcome, ...(reason !== undefined && { reason }) });

const platformsOf = (batch: ReportedBatch) => {
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  return { devices, platform: (deviceId: string) => devices.get(deviceId)?.platform ?? 'unknown' };
};

/**
 * A gateway call's devices not sent, in the delivery log: one entry per device (one insertMany; a sent push's entry
 * is its history document).
 */
export async function logUnsent(
  deps: Pick<Deps, 'models'>,
  batch: ReportedBatch,
  outcomes: ReportedOutcomes,
): Promise<void> {
  if (outcomes.failed.length + outcomes.rejected.length === 0) return;
  const { platform } = platformsOf(batch);
  await writeDeliveryLog(deps.models, batch.notificationId, outcomes.at, [
    ...outcomes.failed.map(({ deviceId, reason }) => logEntry(deviceId, platform(deviceId), 'failed', reason)),
    ...outcomes.rejected.map(({ deviceId, reason }) => logEntry(deviceId, platform(deviceId), 'unsubscribed', reason)),
  ]);
}

/**
 * message.failed and device.unsubscribed of a gateway call, for the endpoints subscribed to them (one addBulk, none
 * without such an endpoint). Only queued here: the webhook worker makes the calls, so no receiver slows a send.
 */
export async function publishOutcomeEvents(
  deps: Pick<Deps, 'models' | 'queues'>,
  batch: ReportedBatch,
  outcomes: ReportedOutcomes,
): Promise<void> {
  if (outcomes.failed.length + outcomes.rejected.length === 0) return;
  const { notificationId } = batch;
  const { at } = outcomes;
  const { devices, platform } = platformsOf(batch);
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

/** Devices the frequency cap stopped: logged `capped` (one insertMany), with no webhook event. */
export async function reportCapped(
  deps: Pick<Deps, 'models' | 'queues'>,
  batch: Pick<DeliverJobData, 'notificationId'>,
  devices: BatchDevice[],
): Promise<void> {
  const entries = devices.map((device) => logEntry(device.deviceId, device.platform, 'capped'));
  await writeDeliveryLog(deps.models, batch.notificationId, new Date(), entries);
}

/** A device failed without a gateway call, and why: each device of a batch may have its own reason. */
export interface UnsentDevice {
  device: BatchDevice;
  /** `expired`: held past its time to live (CONTRACTS §14); `failed`: its content could not be rendered. */
  outcome: 'failed' | 'expired';
  reason: string;
}

/**
 * Devices failed without a gateway call (a push held past its ttl, a render that failed): each logged with its own
 * outcome and reason, and with message.failed, as a call's are (logUnsent, publishOutcomeEvents).
 */
export async function reportUnsent(
  deps: Pick<Deps, 'models' | 'queues'>,
  batch: Pick<DeliverJobData, 'projectId' | 'notificationId'>,
  unsent: UnsentDevice[],
): Promise<void> {
  const at = new Date();
  const entries = unsent.map(({ device, outcome, reason }) =>
    logEntry(device.deviceId, device.platform, outcome, reason),
  );
  await writeDeliveryLog(deps.models, batch.notificationId, at, entries);
  const events = unsent.map(({ device, reason }) => messageFailed(batch.notificationId, device.deviceId, reason, at));
  await publishWebhookEvents(deps, batch.projectId, events);
}
