import type { Models } from '../models/index.ts';
import type { NotificationView } from '../schemas/notification.ts';
import { deliveryStats, toNotificationView, type StatsDeps } from './notification-view.ts';
import type { PageBoundary } from '../infra/newest-first-page.ts';
import {
  createdBefore,
  createdWith,
  newestFirst,
  newestFirstListing,
  type NewestFirstFilter,
} from '../models/newest-first-list.ts';

export interface NotificationPage {
  limit: number;
  before?: PageBoundary;
}

/**
 * A project's notifications by a newest-first filter, served by {projectId: 1, journeyStepId: 1, createdAt: -1,
 * _id: -1}. A journey push step's batches are counted on its step, not listed (CONTRACTS §18).
 */
const readNotifications = (models: Models) => (filter: NewestFirstFilter, limit: number) =>
  models.Notification.find({ ...filter, journeyStepId: null })
    .sort(newestFirst)
    .limit(limit)
    .lean();

/** A range scan that stops after `limit` documents. */
export function listNotificationsQuery(models: Models, projectId: string, page: { limit: number; before?: Date }) {
  return readNotifications(models)(createdBefore(projectId, page.before), page.limit);
}

/** The notifications created at the same time as one, after it in the newest-first order. */
export function sameTimeNotificationsQuery(
  models: Models,
  projectId: string,
  after: { createdAt: Date; id: string },
  limit: number,
) {
  return readNotifications(models)(createdWith(projectId, after.createdAt, after.id), limit);
}

/** A project's notifications by pages, and where a page ending with one of them ends. */
export const notificationListing = (models: Models) => newestFirstListing(readNotifications(models));

/** Newest first, each with the same status and stats as reading it alone answers. */
export async function listNotificationViews(
  deps: StatsDeps,
  projectId: string,
  page: NotificationPage,
): Promise<NotificationView[]> {
  const notifications = await notificationListing(deps.models).list(projectId, page.limit, page.before);
  const stats = await deliveryStats(
    deps,
    projectId,
    notifications.map((notification) => notification._id),
  );
  return notifications.map((notification) => toNotificationView(notification, stats.get(notification._id)!));
}
