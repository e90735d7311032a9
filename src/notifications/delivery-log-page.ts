import type { Models } from '../models/index.ts';
import { deliveryLogKey, deliveryLogRange } from '../models/delivery-log.ts';
import type { DeliveryLogQuery, DeliveryView } from '../schemas/delivery-log.ts';
import { notFound } from '../errors.ts';

/**
 * A page of a notification's delivery log in device order, after the device `after`: an _id range (every entry's
 * _id is `<notificationId>:<deviceId>`), with an outcome through the (notificationId, outcome, _id) index. Another
 * project's notification is not found.
 */
export async function deliveryLogPage(
  models: Models,
  projectId: string,
  notificationId: string,
  query: DeliveryLogQuery,
): Promise<DeliveryView[]> {
  if (!(await models.Notification.exists({ _id: notificationId, projectId })))
    throw notFound(`No notification "${notificationId}" in this project.`);
  const range = deliveryLogRange(notificationId);
  const filter = {
    ...(query.outcome ? { notificationId, outcome: query.outcome } : {}),
    _id: query.after === undefined ? range : { ...range, $gt: deliveryLogKey(notificationId, query.after) },
  };
  const entries = await models.DeliveryLog.find(filter).sort({ _id: 1 }).limit(query.limit).lean();
  return entries.map((entry) => ({
    deviceId: entry.deviceId,
    platform: entry.platform,
    outcome: entry.outcome,
    ...(entry.reason != null && { reason: entry.reason }),
    at: entry.at.toISOString(),
  }));
}
