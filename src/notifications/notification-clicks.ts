import type { Models } from '../models/index.ts';

export const clicksFilter = (notificationId: string) => ({ notificationId });

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

export function countClicks(models: Models, notificationId: string): Promise<number> {
  return models.NotificationClick.countDocuments(clicksFilter(notificationId));
}
