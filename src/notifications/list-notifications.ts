import type { Models } from '../models/index.ts';
import type { NotificationView } from '../schemas/notification.ts';
import { deliveryStats, toNotificationView } from './notification-view.ts';
import { newestFirstPage, type PageBoundary } from '../infra/newest-first-page.ts';

export interface NotificationPage {
  limit: number;
  before?: PageBoundary;
}

/** Newest first; the id orders notifications created in the same millisecond. */
const newestFirst = { createdAt: -1, _id: -1 } as const;

/** Served by the index {projectId: 1, createdAt: -1, _id: -1}: a range scan that stops after `limit` documents. */
export function listNotificationsQuery(models: Models, projectId: string, page: { limit: number; before?: Date }) {
  return models.Notification.find({ projectId, ...(page.before && { createdAt: { $lt: page.before } }) })
    .sort(newestFirst)
    .limit(page.limit)
    .lean();
}

/** The notifications created at the same time as one, after it in the newest-first order; the same index. */
export function sameTimeNotificationsQuery(
  models: Models,
  projectId: string,
  after: { createdAt: Date; id: string },
  limit: number,
) {
  return models.Notification.find({ projectId, createdAt: after.createdAt, _id: { $lt: after.id } })
    .sort(newestFirst)
    .limit(limit)
    .lean();
}

function pageOfNotifications(models: Models, projectId: string, { limit, before }: NotificationPage) {
  return newestFirstPage(limit, before, {
    sameTime: (createdAt, id, count) => sameTimeNotificationsQuery(models, projectId, { createdAt, id }, count),
    older: (count, olderThan) => listNotificationsQuery(models, projectId, { limit: count, before: olderThan }),
    placeOf: (notification) => ({ time: notification.createdAt, key: notification._id }),
  });
}

/** Newest first, each with the same status and stats as reading it alone answers. */
export async function listNotificationViews(
  models: Models,
  projectId: string,
  page: NotificationPage,
): Promise<NotificationView[]> {
  const notifications = await pageOfNotifications(models, projectId, page);
  const stats = await deliveryStats(
    models,
    notifications.map((notification) => notification._id),
  );
  return notifications.map((notification) => toNotificationView(notification, stats.get(notification._id)!));
}
