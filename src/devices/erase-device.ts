import type { Deps } from '../deps.ts';
import { deviceKey } from '../models/device.ts';
import { historyKey } from '../models/history.ts';
import { notFound } from '../http/api-error.ts';
import { flushAllCounts } from '../events/pending-counts.ts';

/**
 * Erases a device and what is stored about it, as a data-protection request asks: its notification history and the
 * clicks it reported on those notifications, the events it reported and their daily counts (those still gathered in
 * Redis flushed first, so that none comes back), and then the device itself, last, so that a call cut short by an
 * outage can be made again. Notifications keep their sent, failed and unsubscribed counts, which are sums per delivery
 * batch, and no longer count the device's click; the events of the device's user stay, being the user's. Each
 * deletion is served by an index of its collection.
 */
export async function eraseDevice(
  deps: Pick<Deps, 'models' | 'redis' | 'config'>,
  projectId: string,
  deviceId: string,
): Promise<void> {
  const { models } = deps;
  const key = deviceKey(projectId, deviceId);
  if ((await models.Device.exists({ _id: key })) === null) throw notFound(`No device "${deviceId}" in this project.`);
  const received = await models.History.find({ projectId, deviceId }, { _id: 0, notificationId: 1 }).lean();
  // A click is stored under the key of the history entry of the push clicked, so the history names them all.
  const clicks = received.map(({ notificationId }) => historyKey(notificationId, deviceId));
  if (clicks.length > 0) await models.NotificationClick.deleteMany({ _id: { $in: clicks } });
  await models.History.deleteMany({ projectId, deviceId });
  const subject = { projectId, subjectType: 'device' as const, subjectId: deviceId };
  await models.Event.deleteMany(subject);
  await flushAllCounts(deps, projectId);
  await models.EventCounter.deleteMany(subject);
  await models.Device.deleteOne({ _id: key });
}
