import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import { deviceKey } from '../models/device.ts';
import { inAppEvents } from '../schemas/in-app-events.ts';

type ReportedEvent = Pick<EventDocument, 'type' | 'subjectType' | 'subjectId' | 'data' | 'receivedAt'>;

/** The ids of messages of the project among these: a showing is kept only for a message the project has. */
export const knownMessagesQuery = (models: Models, ids: string[]) =>
  models.InAppMessage.find({ _id: { $in: ids } }, { _id: 1, projectId: 1 }).lean<
    Array<{ _id: string; projectId: string }>
  >();

/**
 * Keeps each device's last @iam_displayed per message on the device's own document (lastInAppDisplays), so that the
 * SDK route's one read of the device by _id also answers frequency. $max makes the write safe to repeat and to
 * receive out of order. The message id is sent by a client: only a message of the project is kept, so a device
 * document holds at most one entry per message the project has had, and no client text becomes a field name.
 */
export async function recordDisplays(models: Models, projectId: string, events: ReportedEvent[]): Promise<void> {
  const displays = events.flatMap((event) => {
    const messageId = event.data?.inAppMessageId;
    return event.type === inAppEvents.displayed && event.subjectType === 'device' && typeof messageId === 'string'
      ? [{ deviceId: event.subjectId, messageId, at: event.receivedAt }]
      : [];
  });
  if (displays.length === 0) return;
  const messages = await knownMessagesQuery(models, [...new Set(displays.map((display) => display.messageId))]);
  const known = new Set(messages.filter((message) => message.projectId === projectId).map((message) => message._id));
  const writes = displays
    .filter((display) => known.has(display.messageId))
    .map((display) => ({
      updateOne: {
        filter: { _id: deviceKey(projectId, display.deviceId) },
        update: { $max: { [`lastInAppDisplays.${display.messageId}`]: display.at } },
      },
    }));
  // A showing changes nothing the device's owner set: the revision and updatedAt stay.
  if (writes.length > 0) await models.Device.bulkWrite(writes, { ordered: false, timestamps: false });
}
