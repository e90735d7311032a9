import type { Logger } from 'pino';
import type { Queue } from 'bullmq';
import type { Models } from './index.ts';
import { historyTtlIndex } from './history.ts';
import { schedulePurgeHistory } from '../queues/purge-history-schedule.ts';

export type HistoryExpiry = 'ttl-index' | 'purge-job';

function isRefusedIndexOption(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 238 /* NotImplemented */ || code === 197 /* InvalidIndexSpecificationOption */ || /expireAfterSeconds/.test(error.message);
}

/**
 * Builds every index at start-up. A server without TTL support (FerretDB 1.x) gets the repeatable purge job instead,
 * so history older than 30 days is deleted either way.
 */
export async function ensureIndexes(models: Models, maintenance: Queue, log: Logger): Promise<HistoryExpiry> {
  for (const model of Object.values(models)) {
    await model.createCollection().catch((error: unknown) => {
      if ((error as { codeName?: string }).codeName !== 'NamespaceExists') throw error;
    });
    await model.createIndexes();
  }
  try {
    await models.History.collection.createIndex(historyTtlIndex.key, { expireAfterSeconds: historyTtlIndex.expireAfterSeconds });
    return 'ttl-index';
  } catch (error) {
    if (!isRefusedIndexOption(error)) throw error;
    log.warn({ reason: (error as Error).message }, 'the MongoDB server refused the history TTL index; a repeatable purge job deletes history older than 30 days instead');
    await models.History.collection.createIndex(historyTtlIndex.key);
    await schedulePurgeHistory(maintenance);
    return 'purge-job';
  }
}
