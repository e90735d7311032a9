import type { Models } from '../models/index.ts';
import { historyKey } from '../models/history.ts';
import type { MessageContent } from '../rendering/message-content.ts';
import { MicroBatchedInserts } from '../infra/micro-batched-inserts.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';
import type { Platform } from '../schemas/platforms.ts';

export interface DeliveredPush {
  deviceId: string;
  platform: Platform;
  content: MessageContent;
}

/** By the history key, so one _id lookup per device however large the history grows. */
export function deliveredHistoryQuery(models: Models, notificationId: string, deviceIds: string[]) {
  return models.History.find(
    { _id: { $in: deviceIds.map((deviceId) => historyKey(notificationId, deviceId)) } },
    { deviceId: 1 },
  ).lean();
}

/** The devices among deviceIds that already have history for the notification: the gateway took their push. */
export async function deliveredDevices(
  models: Models,
  notificationId: string,
  deviceIds: string[],
): Promise<Set<string>> {
  const entries = await deliveredHistoryQuery(models, notificationId, deviceIds);
  return new Set(entries.map((entry) => entry.deviceId));
}

const historyInserts = weakMemoize((models: Models) => new MicroBatchedInserts(models.History.collection));

/**
 * One history document per accepted push; its (notificationId, deviceId) _id makes a repeat a no-op. It is also the
 * push's `sent` entry in the delivery log (with its platform), so that a sent push costs one document, not two. The
 * process's gateway calls that end together write theirs in one insert (MicroBatchedInserts).
 */
export async function recordHistory(
  models: Models,
  projectId: string,
  notification: { id: string; createdAt: Date },
  pushes: DeliveredPush[],
  sentAt: Date,
): Promise<void> {
  if (pushes.length === 0) return;
  const documents = pushes.map(({ deviceId, platform, content }) => ({
    _id: historyKey(notification.id, deviceId),
    projectId,
    deviceId,
    platform,
    notificationId: notification.id,
    notification: { id: notification.id, createdAt: notification.createdAt, ...content },
    sentAt,
  }));
  await historyInserts(models).insert(documents);
}
