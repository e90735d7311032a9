import type { Logger } from 'pino';
import type { Queue } from 'bullmq';
import type { Models } from './index.ts';
import { historyTtlIndex } from './history.ts';
import { schedulePurgeHistory } from '../queues/maintenance-schedules.ts';
import type { ServerCapabilities } from './server-capabilities.ts';

export type HistoryExpiry = 'ttl-index' | 'purge-job';
export type DeviceTagsIndex = 'wildcard' | 'none';

export interface EnsuredIndexes {
  historyExpiry: HistoryExpiry;
  deviceTagsIndex: DeviceTagsIndex;
}

/** Serves segment tag conditions on any tag key (MongoDB 7+ compound wildcard index). */
export const deviceTagsIndexKey = { projectId: 1, 'tags.$**': 1 } as const;

function isRefusedIndexOption(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 238 /* NotImplemented */ || code === 197 /* InvalidIndexSpecificationOption */ || /expireAfterSeconds/.test(error.message);
}

async function ensureHistoryExpiry(models: Models, maintenance: Queue, log: Logger): Promise<HistoryExpiry> {
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

/** Only where the server has wildcard indexes; a MongoDB older than 7 refuses the compound form, which is logged, not fatal. */
async function ensureDeviceTagsIndex(models: Models, capabilities: ServerCapabilities, log: Logger): Promise<DeviceTagsIndex> {
  if (!capabilities.wildcardIndexes) return 'none';
  try {
    await models.Device.collection.createIndex(deviceTagsIndexKey);
    return 'wildcard';
  } catch (error) {
    log.warn({ reason: (error as Error).message }, 'the MongoDB server refused the compound wildcard index on device tags; tag segments scan the project\'s devices');
    return 'none';
  }
}

/**
 * Builds every index at start-up. A server without TTL support (FerretDB 1.x) gets the repeatable purge job instead,
 * so history older than 30 days is deleted either way.
 */
export async function ensureIndexes(models: Models, capabilities: ServerCapabilities, maintenance: Queue, log: Logger): Promise<EnsuredIndexes> {
  for (const model of Object.values(models)) {
    await model.createCollection().catch((error: unknown) => {
      if ((error as { codeName?: string }).codeName !== 'NamespaceExists') throw error;
    });
    await model.createIndexes();
  }
  return { historyExpiry: await ensureHistoryExpiry(models, maintenance, log), deviceTagsIndex: await ensureDeviceTagsIndex(models, capabilities, log) };
}
