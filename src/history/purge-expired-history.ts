import type { Models } from '../models/index.ts';
import { historyRetentionSeconds } from '../models/history.ts';

export function historyCutoff(now: Date): Date {
  return new Date(now.getTime() - historyRetentionSeconds * 1000);
}

/** The fallback for servers without TTL indexes; harmless where the TTL index already does the work. */
export async function purgeExpiredHistory(models: Models, now = new Date()): Promise<number> {
  const result = await models.History.deleteMany({ sentAt: { $lt: historyCutoff(now) } });
  return result.deletedCount;
}
