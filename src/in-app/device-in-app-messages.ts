import type { CountDeps } from '../events/pending-counts.ts';
import type { RenderPool } from '../rendering/render-pool.ts';
import type { DeviceInAppMessage } from '../schemas/in-app-message.ts';
import type { Tags } from '../schemas/tags.ts';
import { deviceInSegment } from '../segments/device-in-segment.ts';
import type { StoredInAppMessage } from '../models/in-app-message.ts';
import { activeInAppMessages } from './active-messages.ts';
import { frequencyAllows, type LastDisplayed } from './in-app-message-rules.ts';
import { renderedForDevice } from './rendered-for-device.ts';

/** The device's tags, user and last showings; a device the project does not have is a 404 of the reader's. */
export type ReadDevice = (
  projectId: string,
  deviceId: string,
) => Promise<{ userId?: string | null; tags?: Tags | null; lastInAppDisplays?: LastDisplayed | null }>;

const inSchedule = (message: StoredInAppMessage, now: Date) =>
  (!message.startAt || message.startAt <= now) && (!message.endAt || message.endAt > now);

/**
 * CONTRACTS §16: the active messages this device may see now, each rendered for it, highest priority first. One read
 * of the device by _id (through the reads the device routes gather) gives its tags, user and last showing of each
 * message; the project's active messages and their segments are the process's copy (kept two seconds). A segment is
 * evaluated for this device alone (its document, and for an event condition its own event counts), never by reading
 * the project's devices, so the answer costs the same however many devices the project has.
 */
export async function deviceInAppMessages(
  deps: CountDeps & { renderer: RenderPool },
  readDevice: ReadDevice,
  projectId: string,
  deviceId: string,
  now = new Date(),
): Promise<DeviceInAppMessage[]> {
  const { models } = deps;
  const [device, active] = await Promise.all([
    readDevice(projectId, deviceId),
    activeInAppMessages(models).forProject(projectId),
  ]);
  const displayed = device.lastInAppDisplays ?? {};
  const candidates = active.messages.filter(
    (message) => inSchedule(message, now) && frequencyAllows(message.frequency, displayed[message._id], now),
  );
  const segmentIds = new Set(candidates.flatMap((message) => (message.segmentId ? [message.segmentId] : [])));
  const tags = device.tags ?? {};
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
  const audience = candidates.filter((message) => !message.segmentId || membership.get(message.segmentId) === true);
  return renderedForDevice(deps.renderer, projectId, audience, scopeDevice);
}
