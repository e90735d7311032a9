import type { CountDeps } from '../events/pending-counts.ts';
import type { Models } from '../models/index.ts';
import { deviceKey } from '../models/device.ts';
import type { DeviceInAppMessage } from '../schemas/in-app-message.ts';
import type { Tags } from '../schemas/tags.ts';
import { notFound } from '../http/api-error.ts';
import { deviceInSegment } from '../segments/device-in-segment.ts';
import type { StoredInAppMessage } from './in-app-message-store.ts';
import { activeInAppMessages } from './active-messages.ts';
import { frequencyAllows, lastDisplayed } from './display-history.ts';
import { renderedForDevice } from './rendered-for-device.ts';

export const segmentDeviceQuery = (models: Models, projectId: string, deviceId: string) =>
  models.Device.findById(deviceKey(projectId, deviceId), { _id: 0, deviceId: 1, userId: 1, tags: 1 }).lean();

const inSchedule = (message: StoredInAppMessage, now: Date) =>
  (!message.startAt || message.startAt <= now) && (!message.endAt || message.endAt > now);

/**
 * CONTRACTS §16: the active messages this device may see now, each rendered for it, highest priority first. The
 * device and its display history are read at once, each by an index, beside the project's active messages and their
 * segments (kept by the process for two seconds); a
 * segment is evaluated for this device alone (its document and its own event counts), never by reading the project's
 * devices, so the answer costs the same however many devices the project has.
 */
export async function deviceInAppMessages(
  deps: CountDeps,
  projectId: string,
  deviceId: string,
  now = new Date(),
): Promise<DeviceInAppMessage[]> {
  const { models } = deps;
  const [device, active, displayed] = await Promise.all([
    segmentDeviceQuery(models, projectId, deviceId),
    activeInAppMessages(models).forProject(projectId),
    lastDisplayed(models, projectId, deviceId),
  ]);
  if (!device) throw notFound(`No device "${deviceId}" in this project.`);
  const candidates = active.messages.filter(
    (message) => inSchedule(message, now) && frequencyAllows(message.frequency, displayed.get(message._id), now),
  );
  const segmentIds = new Set(candidates.flatMap((message) => (message.segmentId ? [message.segmentId] : [])));
  const tags = (device.tags ?? {}) as Tags;
  const subject = { projectId, deviceId, tags };
  const membership = new Map(
    await Promise.all(
      [...segmentIds].map(async (segmentId) => {
        const segment = active.segments.get(segmentId);
        return [segmentId, segment !== undefined && (await deviceInSegment(deps, subject, segment, now))] as const;
      }),
    ),
  );
  const scopeDevice = { deviceId, userId: device.userId, tags };
  return candidates
    .filter((message) => !message.segmentId || membership.get(message.segmentId) === true)
    .map((message) => renderedForDevice(message, scopeDevice))
    .filter((message) => message !== null);
}
