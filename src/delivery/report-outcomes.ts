import type { Deps } from '../deps.ts';
import type { BatchDevice, DeliverJobData } from '../queues/deliver.ts';
import { writeDeliveryLog, type DeliveryLogEntry } from '../history/delivery-log.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { messageFailed } from '../webhooks/webhook-events.ts';

const logEntry = (
  deviceId: string,
  platform: string,
  outcome: DeliveryLogEntry['outcome'],
  reason?: string,
): DeliveryLogEntry => ({ deviceId, platform, outcome, ...(reason !== undefined && { reason }) });

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
 * outcome and reason, and with message.failed, as a call's refused devices are (writeRefusals).
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
