import type { Models } from '../models/index.ts';
import type { NotificationView, NotificationStats } from '../schemas/notification.ts';
import { notFound } from '../http/api-error.ts';
import { countClicks } from './notification-clicks.ts';

export function deliveryResultsQuery(models: Models, notificationId: string) {
  return models.DeliveryResult.find({ notificationId }, { sent: 1, failed: 1, unsubscribed: 1 }).lean();
}

/** A notification of another project is not found, as if it did not exist. */
export function projectNotificationQuery(models: Models, projectId: string, notificationId: string) {
  return models.Notification.findOne({ _id: notificationId, projectId }).lean();
}

/**
 * Sent, failed and unsubscribed are summed over the notification's delivery batches (see models/delivery-result.ts);
 * clicked counts its clicks (see models/notification-click.ts).
 */
export async function deliveryStats(
  models: Models,
  notificationId: string,
): Promise<Omit<NotificationStats, 'targeted'>> {
  const [results, clicked] = await Promise.all([
    deliveryResultsQuery(models, notificationId),
    countClicks(models, notificationId),
  ]);
  const stats = { sent: 0, failed: 0, unsubscribed: 0, clicked };
  for (const result of results) {
    stats.sent += result.sent ?? 0;
    stats.failed += result.failed ?? 0;
    stats.unsubscribed += result.unsubscribed ?? 0;
  }
  return stats;
}

type StoredNotification = NonNullable<Awaited<ReturnType<typeof projectNotificationQuery>>>;

export async function findNotificationView(
  models: Models,
  projectId: string,
  notificationId: string,
): Promise<NotificationView> {
  const [notification, stats] = await Promise.all([
    projectNotificationQuery(models, projectId, notificationId),
    deliveryStats(models, notificationId),
  ]);
  if (!notification) throw notFound(`No notification "${notificationId}" in this project.`);
  return toNotificationView(notification, stats);
}

export function toNotificationView(
  notification: StoredNotification,
  stats: Omit<NotificationStats, 'targeted'>,
): NotificationView {
  return {
    id: notification._id,
    createdAt: notification.createdAt.toISOString(),
    status: notification.status,
    title: notification.title ?? null,
    body: notification.body ?? '',
    url: notification.url ?? null,
    imageUrl: notification.imageUrl ?? null,
    stats: { targeted: notification.stats?.targeted ?? 0, ...stats },
  };
}
