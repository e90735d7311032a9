import type { Models } from '../models/index.ts';
import { deliveryLogKey } from '../models/delivery-log.ts';
import type { DeliveryOutcome } from '../schemas/delivery-log.ts';
import { MicroBatchedInserts } from '../infra/micro-batched-inserts.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';

export interface DeliveryLogEntry {
  deviceId: string;
  platform: string;
  outcome: DeliveryOutcome;
  reason?: string;
}

const logInserts = weakMemoize(
  (models: Pick<Models, 'DeliveryLog'>) => new MicroBatchedInserts(models.DeliveryLog.collection),
);

/**
 * One entry per device of a notification, in one unordered insert with those of the process's other calls that end
 * together (MicroBatchedInserts): an entry written before (a rerun writing a call's outcomes again) is refused by its _id
 * and taken as written.
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
  await logInserts(models).insert(documents);
}
