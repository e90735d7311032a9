import type { Models } from '../models/index.ts';

/** The clicks of each of these notifications, counted in one aggregate served by the notificationId index. */
export const clickCountsPipeline = (notificationIds: string[]) => [
  { $match: { notificationId: { $in: notificationIds } } },
  { $group: { _id: '$notificationId', clicked: { $sum: 1 } } },
];

/**
 * Records that the device clicked the notification (the SDK's @clicked with data.notificationId). Only a
 * notification of the device's own project counts; repeating it changes nothing.
 */
export async function recordClick(
  models: Models,
  projectId: string,
  notificationId: string,
  deviceId: string,
): Promise<void> {
  const notification = await models.Notification.exists({ _id: notificationId, projectId });
  if (!notification) return;
  await models.NotificationClick.updateOne(
    { _id: `${notificationId}:${deviceId}` },
    { $setOnInsert: { notificationId, deviceId, clickedAt: new Date() } },
    { upsert: true },
  );
}

/** Distinct clicking devices per notification; a notification nobody clicked is absent. */
export async function countClicks(models: Models, notificationIds: string[]): Promise<Map<string, number>> {
  const counts = await models.NotificationClick.aggregate<{ _id: string; clicked: number }>(
    clickCountsPipeline(notificationIds),
  );
  return new Map(counts.map((count) => [count._id, count.clicked]));
}
