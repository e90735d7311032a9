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

/** A notification's entries as the delivery log stores them, keyed by notification and device. */
export const deliveryLogDocuments = (notificationId: string, at: Date, entries: DeliveryLogEntry[]) =>
  entries.map((entry) => ({ _id: deliveryLogKey(notificationId, entry.deviceId), notificationId, ...entry, at }));

/**
 * Entries of any notifications in one unordered insert with those of the process's other calls that end together
 * (MicroBatchedInserts): an entry written before (a rerun writing a call's outcomes again) is refused by its _id and
 * taken as written.
 */
export async function insertDeliveryLog(
  models: Pick<Models, 'DeliveryLog'>,
  documents: ReturnType<typeof deliveryLogDocuments>,
): Promise<void> {
  await logInserts(models).insert(documents);
}

/** One entry per device of a notification (insertDeliveryLog). */
export async function writeDeliveryLog(
  models: Pick<Models, 'DeliveryLog'>,
  notificationId: string,
  at: Date,
  entries: DeliveryLogEntry[],
): Promise<void> {
  await insertDeliveryLog(models, deliveryLogDocuments(notificationId, at, entries));
}
