import type { Models } from '../models/index.ts';
import type { MessageContent } from '../rendering/message-content.ts';

export interface DeliveredPush {
  deviceId: string;
  content: MessageContent;
}

function onlyDuplicateKeyErrors(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: Array<{ code?: number }> | { code?: number } }).writeErrors;
  if (writeErrors === undefined) return false;
  return (Array.isArray(writeErrors) ? writeErrors : [writeErrors]).every((writeError) => writeError.code === 11000);
}

/** One history document per accepted push; the unique (notificationId, deviceId) index makes a repeat a no-op. */
export async function recordHistory(
  models: Models,
  projectId: string,
  notification: { id: string; createdAt: Date },
  pushes: DeliveredPush[],
  sentAt: Date,
): Promise<void> {
  if (pushes.length === 0) return;
  const documents = pushes.map(({ deviceId, content }) => ({
    projectId,
    deviceId,
    notificationId: notification.id,
    notification: { id: notification.id, createdAt: notification.createdAt, ...content },
    sentAt,
  }));
  try {
    await models.History.collection.insertMany(documents, { ordered: false });
  } catch (error) {
    if (!onlyDuplicateKeyErrors(error)) throw error;
  }
}
