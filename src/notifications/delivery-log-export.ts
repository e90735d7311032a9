import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Models } from '../models/index.ts';
import type { DeliveryLogQuery } from '../schemas/delivery-log.ts';

/** The log's own entries: waiting pushes are not in it (they are listed from the queue). */
type LoggedQuery = Omit<DeliveryLogQuery, 'outcome'> & { outcome?: Exclude<DeliveryLogQuery['outcome'], 'waiting'> };
import { mergedById } from '../targets/merged-by-id.ts';
import { assertProjectNotification } from './notification-view.ts';

const columns = ['deviceId', 'platform', 'outcome', 'reason', 'at'];

interface LogEntry {
  _id: string;
  deviceId: string;
  platform?: string | null;
  outcome?: string;
  reason?: string | null;
  at?: Date;
  sentAt?: Date;
}

/** The log's sent entries (history) and its others, each in _id order on its (notificationId, _id) index. */
export const sentLogQuery = (models: Models, notificationId: string) =>
  models.History.find({ notificationId }, { deviceId: 1, platform: 1, sentAt: 1 }).sort({ _id: 1 }).lean<LogEntry[]>();

export const otherLogQuery = (models: Models, notificationId: string, outcome: LoggedQuery['outcome']) =>
  models.DeliveryLog.find({ notificationId, ...(outcome && { outcome }) })
    .sort({ _id: 1 })
    .lean<LogEntry[]>();

/**
 * The whole log in device order: its sent entries (history) and the others (the delivery log) each read by a cursor
 * on its (notificationId, _id) index, merged by key as a page is (deliveryLogPage); a key in both is listed once.
 */
async function* logRows(models: Models, notificationId: string, query: LoggedQuery): AsyncIterable<string[]> {
  // The outcome filter leaves out the query that cannot hold it, rather than reading it for nothing.
  const streams: AsyncIterable<LogEntry>[] = [];
  if (query.outcome === undefined || query.outcome === 'sent')
    streams.push(sentLogQuery(models, notificationId).cursor({ batchSize: 1000 }));
  if (query.outcome !== 'sent')
    streams.push(otherLogQuery(models, notificationId, query.outcome).cursor({ batchSize: 1000 }));
  yield columns;
  let last: string | undefined;
  for await (const entry of mergedById<LogEntry>(streams)) {
    if (entry._id === last) continue;
    last = entry._id;
    const at = entry.sentAt ?? entry.at!;
    yield [entry.deviceId, entry.platform ?? 'unknown', entry.outcome ?? 'sent', entry.reason ?? '', at.toISOString()];
  }
}

/** The notification's delivery log as CSV, streamed as the client reads it; another project's is not found. */
export async function deliveryLogCsv(
  models: Models,
  projectId: string,
  notificationId: string,
  query: LoggedQuery,
): Promise<Readable> {
  await assertProjectNotification(models, projectId, notificationId);
  // A failed read ends the response with the stream's error: pipeline passes it on to the CSV stream.
  return pipeline(Readable.from(logRows(models, notificationId, query)), stringify(), () => {});
}
