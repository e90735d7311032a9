import type { Models } from '../models/index.ts';
import { deliveryLogKey } from '../models/delivery-log.ts';
import type { DeliveryLogQuery, DeliveryView } from '../schemas/delivery-log.ts';
import { assertProjectNotification } from './notification-view.ts';

/** The query of a page, on the (notificationId, _id) index, or (notificationId, outcome, _id) with an outcome. */
export function deliveryLogQuery(models: Models, notificationId: string, query: DeliveryLogQuery) {
  const filter = {
    notificationId,
    ...(query.outcome && { outcome: query.outcome }),
    ...(query.after !== undefined && { _id: { $gt: deliveryLogKey(notificationId, query.after) } }),
  };
  return models.DeliveryLog.find(filter).sort({ _id: 1 }).limit(query.limit).lean();
}

/**
 * A page of a notification's delivery log in device order, after the device `after`. Another project's notification
 * is not found.
 */
export async function deliveryLogPage(
  models: Models,
  projectId: string,
  notificationId: string,
  query: DeliveryLogQuery,
): Promise<DeliveryView[]> {
  await assertProjectNotification(models, projectId, notificationId);
  const entries = await deliveryLogQuery(models, notificationId, query);
  return entries.map((entry) => ({
    deviceId: entry.deviceId,
    platform: entry.platform,
    outcome: entry.outcome,
    ...(entry.reason != null && { reason: entry.reason }),
    at: entry.at.toISOString(),
  }));
}
