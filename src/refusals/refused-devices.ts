import type { Deps } from '../deps.ts';
import type { BatchDevice, DeviceFailure, Rejection } from '../queues/deliver.ts';
import { markUnsubscribed } from '../devices/mark-unsubscribed.ts';
import { deliveryLogDocuments, insertDeliveryLog } from '../history/delivery-log.ts';
import { dayKey } from '../overview/daily-counts.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { deviceUnsubscribed, messageFailed } from '../webhooks/webhook-events.ts';

/**
 * The devices of a notification that gateways refused in one delivery run, with what their writes need besides: each
 * device's platform and user, which the run's batch knew. A rejected device is unsubscribed (CONTRACTS §9), a failed
 * one only logged; both have a delivery-log entry and a webhook event.
 */
export interface RefusedDevices {
  projectId: string;
  notificationId: string;
  /** When the run's first refusal came (ms since the epoch): the time the writes keep. */
  at: number;
  rejected: (Rejection & { platform: string; userId: string | null })[];
  failed: (DeviceFailure & { platform: string })[];
}

export type RefusalWriteDeps = Pick<Deps, 'models' | 'queues' | 'redis' | 'config' | 'log'>;

/** A run's refusals with their devices' platform and user from the run's batch. */
export function refusedDevices(
  batch: { projectId: string; notificationId: string; devices: BatchDevice[] },
  outcomes: { rejected: Rejection[]; failed: DeviceFailure[]; at: Date },
): RefusedDevices {
  const devices = new Map(batch.devices.map((device) => [device.deviceId, device]));
  const platform = (deviceId: string) => devices.get(deviceId)?.platform ?? 'unknown';
  return {
    projectId: batch.projectId,
    notificationId: batch.notificationId,
    at: outcomes.at.getTime(),
    rejected: outcomes.rejected.map((rejection) => ({
      ...rejection,
      platform: platform(rejection.deviceId),
      userId: devices.get(rejection.deviceId)?.userId ?? null,
    })),
    failed: outcomes.failed.map((failure) => ({ ...failure, platform: platform(failure.deviceId) })),
  };
}

export const refusedCount = (refused: RefusedDevices) => refused.rejected.length + refused.failed.length;

/** The unsubscribes of runs grouped by project and UTC day, each group with its earliest refusal's time. */
function unsubscribeGroups(runs: RefusedDevices[]) {
  const groups = new Map<string, { projectId: string; rejections: Rejection[]; at: number }>();
  for (const { projectId, rejected, at } of runs) {
    if (rejected.length === 0) continue;
    const key = JSON.stringify([projectId, dayKey(new Date(at))]);
    const group = groups.get(key) ?? { projectId, rejections: [], at };
    group.rejections.push(...rejected.map(({ deviceId, pushToken, reason }) => ({ deviceId, pushToken, reason })));
    group.at = Math.min(group.at, at);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The delivery-log entries of runs, each at its run's time. */
const logDocuments = (runs: RefusedDevices[]) =>
  runs.flatMap(({ notificationId, at, rejected, failed }) =>
    deliveryLogDocuments(notificationId, new Date(at), [
      ...failed.map(({ deviceId, platform, reason }) => ({ deviceId, platform, outcome: 'failed' as const, reason })),
      ...rejected.map(({ deviceId, platform, reason }) => ({
        deviceId,
        platform,
        outcome: 'unsubscribed' as const,
        reason,
      })),
    ]),
  );

/**
 * message.failed and device.unsubscribed of runs, each run's published on its own: its events go in the same webhook
 * jobs whichever runs a flush takes with it, so that a run written again (a flusher that died after a part of its
 * writes, a run killed before it saved its progress) queues the same jobs, which BullMQ keeps as one.
 */
async function publishRefusalEvents(deps: RefusalWriteDeps, runs: RefusedDevices[]): Promise<void> {
  await Promise.all(
    runs.map(({ projectId, notificationId, at, rejected, failed }) =>
      publishWebhookEvents(deps, projectId, [
        ...failed.map(({ deviceId, reason }) => messageFailed(notificationId, deviceId, reason, new Date(at))),
        ...rejected.map(({ deviceId, userId, platform, reason }) =>
          deviceUnsubscribed(notificationId, { deviceId, userId, platform, reason }, new Date(at)),
        ),
      ]),
    ),
  );
}

/**
 * Writes the refused devices of runs together: the unsubscribes in one pipeline update per project, reason and day
 * (markUnsubscribed, which takes each group's devices out of its day's subscribed count), the delivery-log entries in
 * one insert, then the webhook events, once the devices they name are written. Every write is idempotent (the update's
 * filter, the entries' and the events' keys), so a repeat of the same runs changes nothing.
 */
export async function writeRefusals(deps: RefusalWriteDeps, runs: RefusedDevices[]): Promise<void> {
  const written = runs.filter((run) => refusedCount(run) > 0);
  if (written.length === 0) return;
  await Promise.all([
    ...unsubscribeGroups(written).map(({ projectId, rejections, at }) =>
      markUnsubscribed(deps, projectId, rejections, new Date(at)),
    ),
    insertDeliveryLog(deps.models, logDocuments(written)),
  ]);
  await publishRefusalEvents(deps, written);
}
