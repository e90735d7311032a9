import type { Models } from '../models/index.ts';
import type { NotificationView } from '../schemas/notification.ts';
import { deliveryStats, toNotificationView } from './notification-view.ts';

export interface NotificationPage {
  limit: number;
  /**
   * Where the previous page ended: the createdAt of its last notification, and that notification's id when the caller
   * gave it. With the id, the page starts with the notifications created in the same millisecond that come after it
   * (a journey's sends of one ingest job share their createdAt); with a time alone they are skipped.
   */
  before?: { createdAt: Date; id?: string };
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

async function pageOfNotifications(models: Models, projectId: string, { limit, before }: NotificationPage) {
  const sameTime =
    before?.id === undefined
      ? []
      : await sameTimeNotificationsQuery(models, projectId, { createdAt: before.createdAt, id: before.id }, limit);
  if (sameTime.length === limit) return sameTime;
  const older = await listNotificationsQuery(models, projectId, {
    limit: limit - sameTime.length,
    before: before?.createdAt,
  });
  return [...sameTime, ...older];
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
