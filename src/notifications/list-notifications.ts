import type { Models } from '../models/index.ts';
import type { NotificationView } from '../schemas/notification.ts';
import { deliveryStats, toNotificationView } from './notification-view.ts';

export interface NotificationPage {
  limit: number;
  /** Only notifications created before this time: the createdAt of the last one on the previous page. */
  before?: Date;
}

/** Served by the index {projectId: 1, createdAt: -1}: a range scan that stops after `limit` documents. */
export function listNotificationsQuery(models: Models, projectId: string, page: NotificationPage) {
  return models.Notification.find({ projectId, ...(page.before && { createdAt: { $lt: page.before } }) })
    .sort({ createdAt: -1 })
    .limit(page.limit)
    .lean();
}

/** Newest first, each with the same status and stats as reading it alone answers. */
export async function listNotificationViews(
  models: Models,
  projectId: string,
  page: NotificationPage,
): Promise<NotificationView[]> {
  const notifications = await listNotificationsQuery(models, projectId, page);
  const stats = await deliveryStats(
    models,
    notifications.map((notification) => notification._id),
  );
  return notifications.map((notification) => toNotificationView(notification, stats.get(notification._id)!));
}
