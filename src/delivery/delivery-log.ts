import type { Models } from '../models/index.ts';
import { deliveryLogKey } from '../models/delivery-log.ts';
import type { DeliveryOutcome } from '../schemas/delivery-log.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';

export interface DeliveryLogEntry {
  deviceId: string;
  platform: string;
  outcome: DeliveryOutcome;
  reason?: string;
}

/**
 * One entry per device of a notification, in one unordered insertMany: an entry written before (a rerun writing a
 * call's outcomes again) is refused by its _id and taken as written.
 */
export async function writeDeliveryLog(
  models: Pick<Models, 'DeliveryLog'>,
  notificationId: string,
  at: Date,
  entries: DeliveryLogEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const documents = entries.map((entry) => ({
    _id: deliveryLogKey(notificationId, entry.deviceId),
    notificationId,
    ...entry,
    at,
  }));
  await ignoringDuplicateKeys(documents.length, () => models.DeliveryLog.insertMany(documents, { ordered: false }));
}
