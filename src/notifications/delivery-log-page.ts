import type { Models } from '../models/index.ts';
import { deliveryLogKey } from '../models/delivery-log.ts';
import type { DeliveryLogQuery, DeliveryOutcome, DeliveryView } from '../schemas/delivery-log.ts';
import { assertProjectNotification } from './notification-view.ts';

/** A page of what the log holds: the outcomes written, not the pushes still waiting (waitingEntries). */
type LoggedQuery = Omit<DeliveryLogQuery, 'outcome'> & { outcome?: DeliveryOutcome };

/**
 * The sent entries of a page: the notification's history documents, on the (notificationId, _id) index. Their _id is
 * the delivery log's key, `<notificationId>:<deviceId>`, so both are in device order.
 */
export function sentEntriesQuery(models: Models, notificationId: string, query: LoggedQuery) {
  return models.History.find(
    {
      notificationId,
      ...(query.after !== undefined && { _id: { $gt: deliveryLogKey(notificationId, query.after) } }),
    },
    { deviceId: 1, platform: 1, sentAt: 1 },
  )
    .sort({ _id: 1 })
    .limit(query.limit)
    .lean();
}

/**
 * The other entries of a page, on the (notificationId, _id) index, or (notificationId, outcome, _id) with an outcome.
 * It holds no sent entry but those written before history did, which the page takes from history.
 */
export function deliveryLogQuery(models: Models, notificationId: string, query: LoggedQuery) {
  const filter = {
    notificationId,
    ...(query.outcome && { outcome: query.outcome }),
    ...(query.after !== undefined && { _id: { $gt: deliveryLogKey(notificationId, query.after) } }),
  };
  return models.DeliveryLog.find(filter).sort({ _id: 1 }).limit(query.limit).lean();
}

type Keyed = DeliveryView & { key: string };

/**
 * A page of a notification's delivery log in device order, after the device `after`: the sent entries (history) and
 * the others (the delivery log), each read up to `limit`, merged by key; a key in both, an old sent entry, is listed
 * once. Another project's notification is not found.
 */
export async function deliveryLogPage(
  models: Models,
  projectId: string,
  notificationId: string,
  query: LoggedQuery,
): Promise<DeliveryView[]> {
  await assertProjectNotification(models, projectId, notificationId);
  const [sent, others] = await Promise.all([
    query.outcome === undefined || query.outcome === 'sent' ? sentEntriesQuery(models, notificationId, query) : [],
    query.outcome === 'sent' ? [] : deliveryLogQuery(models, notificationId, query),
  ]);
  const entries: Keyed[] = [
    ...sent.map((entry) => ({
      key: entry._id,
      deviceId: entry.deviceId,
      platform: entry.platform ?? 'unknown',
      outcome: 'sent',
      at: entry.sentAt.toISOString(),
    })),
    ...others.map((entry) => ({
      key: entry._id,
      deviceId: entry.deviceId,
      platform: entry.platform,
      outcome: entry.outcome,
      ...(entry.reason != null && { reason: entry.reason }),
      at: entry.at.toISOString(),
    })),
  ];
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const page = entries.filter((entry, index) => entry.key !== entries[index - 1]?.key);
  return page.slice(0, query.limit).map(({ key: _key, ...view }) => view);
}
