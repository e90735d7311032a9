import type { Models } from '../models/index.ts';
import type { HistoryEntry } from '../schemas/history.ts';
import { historyCutoff } from '../models/history.ts';
import { newestFirstPage, type PageBoundary } from '../infra/newest-first-page.ts';

export interface HistoryPage {
  limit: number;
  before?: PageBoundary;
}

/** Newest first; the _id (notification and device) orders the pushes a device received in the same millisecond. */
const newestFirst = { sentAt: -1, _id: -1 } as const;
const entryFields = { notification: 1, sentAt: 1 } as const;

/** Newest first, never older than the 30-day window, whether or not the TTL monitor has deleted the entry yet. */
export async function deviceHistory(
  models: Models,
  projectId: string,
  deviceId: string,
  page: HistoryPage,
  now = new Date(),
): Promise<HistoryEntry[]> {
  const entries = await newestFirstPage(page.limit, page.before, {
    sameTime: (sentAt, key, limit) => sameTimeHistoryQuery(models, projectId, deviceId, { sentAt, key }, limit),
    older: (limit, before) => deviceHistoryQuery(models, projectId, deviceId, { limit, before }, now),
    placeOf: (entry) => ({ time: entry.sentAt, key: entry._id }),
  });
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

/** Served by the index {projectId, deviceId, sentAt: -1, _id: -1}: a range scan that stops after `limit` entries. */
export function deviceHistoryQuery(
  models: Models,
  projectId: string,
  deviceId: string,
  page: { limit: number; before?: Date },
  now: Date,
) {
  const sentAt = { $gte: historyCutoff(now), ...(page.before && { $lt: page.before }) };
  return models.History.find({ projectId, deviceId, sentAt }, entryFields).sort(newestFirst).limit(page.limit).lean();
}

/** The entries sent at the same time as one, after it in the newest-first order; the same index. */
export function sameTimeHistoryQuery(
  models: Models,
  projectId: string,
  deviceId: string,
  after: { sentAt: Date; key: string },
  limit: number,
) {
  return models.History.find({ projectId, deviceId, sentAt: after.sentAt, _id: { $lt: after.key } }, entryFields)
    .sort(newestFirst)
    .limit(limit)
    .lean();
}
