import type { Redis } from 'ioredis';
import { historyRetentionSeconds } from '../models/history.ts';

/**
 * Answers true the first time a delivery batch starts, and false for any later run of it: a retry round, a
 * recovered stalled job or a replay. Only later runs need to look up which devices already have history, so the
 * common path reads no history at all. The marker lasts as long as history does.
 */
export async function isFirstRunOfBatch(redis: Redis, prefix: string, batchId: string): Promise<boolean> {
  return (await redis.set(`${prefix}:batch-started:${batchId}`, '1', 'EX', historyRetentionSeconds, 'NX')) === 'OK';
}
