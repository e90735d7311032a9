import type { Models } from '../models/index.ts';
import type { OverviewView } from '../schemas/overview.ts';
import { dayMs, startOfUtcDay } from '../events/utc-day.ts';
import { deliveryStats } from '../notifications/notification-view.ts';

const dayKey = (time: Date) => time.toISOString().slice(0, 10);

/**
 * The devices created, or unsubscribed (and still so), since `start`: one date each, by the (projectId, createdAt) and
 * (projectId, isSubscribed, unsubscribedAt) indexes.
 */
export const devicesChangedSinceQuery = (
  models: Models,
  projectId: string,
  field: 'createdAt' | 'unsubscribedAt',
  start: Date,
) =>
  models.Device.find(
    { projectId, ...(field === 'unsubscribedAt' && { isSubscribed: false }), [field]: { $gte: start } },
    { [field]: 1, _id: 0 },
  ).lean<Array<{ createdAt?: Date | null; unsubscribedAt?: Date | null }>>();

export const subscribedDevicesCountQuery = (models: Models, projectId: string) =>
  models.Device.countDocuments({ projectId, isSubscribed: true });

/** The notifications created since `start`, by the (projectId, createdAt, _id) index. */
export const notificationsSinceQuery = (models: Models, projectId: string, start: Date) =>
  models.Notification.find({ projectId, createdAt: { $gte: start } }, { createdAt: 1 }).lean();

function countByDay(dates: Array<Date | null | undefined>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const date of dates) if (date) counts.set(dayKey(date), (counts.get(dayKey(date)) ?? 0) + 1);
  return counts;
}

/**
 * A project's last `days` UTC days: devices subscribed at each day's end, walked back from the count now through the
 * devices created (which were not there before) and unsubscribed (which were) each day; pushes sent and devices that
 * clicked, for the notifications created each day. Reads what changed in the window, never the project's history.
 */
export async function projectOverview(
  models: Models,
  projectId: string,
  days: number,
  now = new Date(),
): Promise<OverviewView> {
  const start = new Date(startOfUtcDay(now).getTime() - (days - 1) * dayMs);
  const [subscribedNow, created, unsubscribed, notifications] = await Promise.all([
    subscribedDevicesCountQuery(models, projectId),
    devicesChangedSinceQuery(models, projectId, 'createdAt', start),
    devicesChangedSinceQuery(models, projectId, 'unsubscribedAt', start),
    notificationsSinceQuery(models, projectId, start),
  ]);
  const createdByDay = countByDay(created.map((device) => device.createdAt));
  const unsubscribedByDay = countByDay(unsubscribed.map((device) => device.unsubscribedAt));
  const stats = await deliveryStats(
    models,
    notifications.map((notification) => notification._id),
  );
  const sent = new Map<string, number>();
  const clicked = new Map<string, number>();
  for (const notification of notifications) {
    const key = dayKey(notification.createdAt);
    const counts = stats.get(notification._id)!;
    sent.set(key, (sent.get(key) ?? 0) + counts.sent);
    clicked.set(key, (clicked.get(key) ?? 0) + counts.clicked);
  }
  const result: OverviewView['days'] = [];
  let subscribed = subscribedNow;
  for (let index = days - 1; index >= 0; index -= 1) {
    const key = dayKey(new Date(start.getTime() + index * dayMs));
    result.unshift({ day: key, subscribed, sent: sent.get(key) ?? 0, clicked: clicked.get(key) ?? 0 });
    subscribed += (unsubscribedByDay.get(key) ?? 0) - (createdByDay.get(key) ?? 0);
  }
  return { days: result };
}
