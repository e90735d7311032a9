import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import { deviceKey } from '../models/device.ts';
import { notFound } from '../errors.ts';
import { flushAllCounts } from '../events/flush-counts.ts';
import { addToDay } from '../overview/daily-counts.ts';

/**
 * Erases a device and what is stored about it, as a data-protection request asks: its notification history, the
 * clicks it reported, the events it reported and their daily counts (those still gathered in Redis flushed first, so
 * that none comes back), and then the device itself, last, so that a call cut short by an outage can be made again.
 * Notifications keep their sent, failed and unsubscribed counts, which are sums per delivery batch, and no longer
 * count the device's click; the events of the device's user stay, being the user's; a subscribed device leaves the
 * day's subscribed devices. Each deletion is served by an index of its collection.
 */
export async function eraseDevice(
  deps: Pick<Deps, 'models' | 'redis' | 'config'>,
  projectId: string,
  deviceId: string,
): Promise<void> {
  const { models } = deps;
  const key = deviceKey(projectId, deviceId);
  const device = await models.Device.findById(key, { isSubscribed: 1 }).lean();
  if (device === null) throw notFound(`No device "${deviceId}" in this project.`);
  // First, as it may wait for a flush already running: a time-out then leaves everything in place.
  await flushAllCounts(deps, projectId);
  await eraseClicksOf(models, projectId, deviceId);
  await models.History.deleteMany({ projectId, deviceId });
  const subject = { projectId, subjectType: 'device' as const, subjectId: deviceId };
  await models.Event.deleteMany(subject);
  await models.EventCounter.deleteMany(subject);
  const erased = await models.Device.deleteOne({ _id: key });
  if (erased.deletedCount === 1 && device.isSubscribed !== false) await addToDay(models, projectId, { subscribed: -1 });
}

export function deviceClicksQuery(models: Models, deviceId: string) {
  return models.NotificationClick.find({ deviceId }, { notificationId: 1 }).lean();
}

/**
 * Deletes the clicks the device reported on this project's notifications, whenever they were, with or without a
 * history entry left. Clicks carry no project: a device id of another project's is told apart by its notifications,
 * read by _id alone, the index every server uses for such a read.
 */
export async function eraseClicksOf(models: Models, projectId: string, deviceId: string): Promise<void> {
  const clicks = await deviceClicksQuery(models, deviceId);
  if (clicks.length === 0) return;
  const notifications = await models.Notification.find(
    { _id: { $in: clicks.map((click) => click.notificationId) } },
    { projectId: 1 },
  ).lean();
  const ours = new Set(notifications.filter((n) => n.projectId === projectId).map((n) => n._id));
  const erased = clicks.filter((click) => ours.has(click.notificationId)).map((click) => click._id);
  if (erased.length > 0) await models.NotificationClick.deleteMany({ _id: { $in: erased } });
}
