import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import { publishWebhookEvents } from '../webhooks/publish-events.ts';
import { messageClicked } from '../webhooks/webhook-events.ts';
import { historyKey } from '../models/history.ts';
import { addToDay } from '../overview/daily-counts.ts';

/** The clicks of each of these notifications, counted in one aggregate served by the notificationId index. */
export const clickCountsPipeline = (notificationIds: string[]) => [
  { $match: { notificationId: { $in: notificationIds } } },
  { $group: { _id: '$notificationId', clicked: { $sum: 1 } } },
];

/**
 * Records that the device clicked the notification (the SDK's @clicked with data.notificationId). Only a device the
 * notification was sent to counts (CONTRACTS §6): its history entry says so, read by _id; and only a notification of
 * the device's own project, since device ids are unique per project only. Repeating it changes nothing; the first
 * click of a device is added to the day's clicks. A counted
 * click is published as message.clicked, again on a repeat (the event's key makes it one job): a click whose event
 * was lost between the two writes is then published by the SDK's retry.
 */
export async function recordClick(
  deps: Pick<Deps, 'models' | 'queues'>,
  projectId: string,
  click: { notificationId: string; deviceId: string; buttonId?: string },
): Promise<void> {
  const { models } = deps;
  const { notificationId, deviceId } = click;
  const [notification, sent] = await Promise.all([
    models.Notification.exists({ _id: notificationId, projectId }),
    models.History.exists({ _id: historyKey(notificationId, deviceId) }),
  ]);
  if (!notification || !sent) return;
  const clickedAt = new Date();
  const clicked = await models.NotificationClick.updateOne(
    { _id: `${notificationId}:${deviceId}` },
    { $setOnInsert: { notificationId, deviceId, clickedAt } },
    { upsert: true },
  );
  if (clicked.upsertedCount === 1) await addToDay(models, projectId, { clicked: 1 }, clickedAt);
  await publishWebhookEvents(deps, projectId, [messageClicked(notificationId, deviceId, clickedAt, click.buttonId)]);
}

/** Distinct clicking devices per notification; a notification nobody clicked is absent. */
export async function countClicks(models: Models, notificationIds: string[]): Promise<Map<string, number>> {
  const counts = await models.NotificationClick.aggregate<{ _id: string; clicked: number }>(
    clickCountsPipeline(notificationIds),
  );
  return new Map(counts.map((count) => [count._id, count.clicked]));
}
