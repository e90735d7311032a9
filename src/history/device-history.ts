import type { Models } from '../models/index.ts';
import type { HistoryEntry } from '../schemas/history.ts';
import { historyCutoff } from '../models/history.ts';

export interface HistoryPage {
  limit: number;
  before?: Date;
}

/** Newest first, never older than the 30-day window, whether or not the TTL monitor has deleted the entry yet. */
export async function deviceHistory(
  models: Models,
  projectId: string,
  deviceId: string,
  page: HistoryPage,
  now = new Date(),
): Promise<HistoryEntry[]> {
  const entries = await deviceHistoryQuery(models, projectId, deviceId, page, now);
  return entries.map(({ notification, sentAt }) => ({
    notification: {
      id: notification?.id ?? '',
      createdAt: notification?.createdAt?.toISOString() ?? '',
      title: notification?.title ?? null,
      body: notification?.body ?? '',
      url: notification?.url ?? null,
      imageUrl: notification?.imageUrl ?? null,
    },
    sentAt: sentAt.toISOString(),
  }));
}

export function deviceHistoryQuery(models: Models, projectId: string, deviceId: string, page: HistoryPage, now: Date) {
  const sentAt = { $gte: historyCutoff(now), ...(page.before && { $lt: page.before }) };
  return models.History.find({ projectId, deviceId, sentAt }, { notification: 1, sentAt: 1 })
    .sort({ sentAt: -1 })
    .limit(page.limit)
    .lean();
}
