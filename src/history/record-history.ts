import type { Models } from '../models/index.ts';
import { historyKey } from '../models/history.ts';
import type { MessageContent } from '../rendering/message-content.ts';

export interface DeliveredPush {
  deviceId: string;
  content: MessageContent;
}

/**
 * True when every document is either inserted or already there. The driver also throws a MongoBulkWriteError,
 * with an EMPTY writeErrors list, when the server could not be reached at all (it wraps the network or
 * server-selection error): "every write error is a duplicate" is then vacuously true, and a history write that
 * never happened used to be taken for a repeat. Those pushes then counted as sent without history, and the run's
 * later failure (the same outage) made the rerun send them again: the duplicates of a MongoDB outage.
 */
function onlyDuplicateKeyErrors(error: unknown, documents: number): boolean {
  const { writeErrors, insertedCount } = error as { writeErrors?: Array<{ code?: number }> | { code?: number }; insertedCount?: number };
  if (writeErrors === undefined) return false;
  const errors = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  return errors.length > 0 && errors.every((writeError) => writeError.code === 11000) && (insertedCount ?? 0) + errors.length === documents;
}

/** By the history key, so one _id lookup per device however large the history grows. */
export function deliveredHistoryQuery(models: Models, notificationId: string, deviceIds: string[]) {
  return models.History.find({ _id: { $in: deviceIds.map((deviceId) => historyKey(notificationId, deviceId)) } }, { deviceId: 1 }).lean();
}

/** One history document per accepted push; its (notificationId, deviceId) _id makes a repeat a no-op. */
export async function recordHistory(
  models: Models,
  projectId: string,
  notification: { id: string; createdAt: Date },
  pushes: DeliveredPush[],
  sentAt: Date,
): Promise<void> {
  if (pushes.length === 0) return;
  const documents = pushes.map(({ deviceId, content }) => ({
    _id: historyKey(notification.id, deviceId),
    projectId,
    deviceId,
    notificationId: notification.id,
    notification: { id: notification.id, createdAt: notification.createdAt, ...content },
    sentAt,
  }));
  try {
    await models.History.collection.insertMany(documents as never[], { ordered: false });
  } catch (error) {
    if (!onlyDuplicateKeyErrors(error, documents.length)) throw error;
  }
}
