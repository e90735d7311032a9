import type { Deps } from '../deps.ts';
import { deviceKey } from '../models/device.ts';
import { notFound } from '../errors.ts';
import { flushAllCounts } from '../events/flush-counts.ts';
import { eraseClicksOf } from '../notifications/notification-clicks.ts';
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
  deps: Pick<Deps, 'models' | 'redis' | 'config' | 'log'>,
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
  if (erased.deletedCount === 1 && device.isSubscribed !== false) await addToDay(deps, projectId, { subscribed: -1 });
}
