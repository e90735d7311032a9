import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** A notification's conversions of one event: how many subjects converted, and the sum of their values. */
export interface ConversionCount {
  count: number;
  value: number;
}
export type ConversionCounts = Record<string, ConversionCount>;

/** A notification's conversions by event, and each variant's, from its counts hash (fields `count|value \n event`). */
export interface NotificationConversions {
  total: ConversionCounts;
  byVariant: Map<string, ConversionCounts>;
}

function add(counts: ConversionCounts, event: string, measure: string, amount: number): void {
  const entry = counts[event] ?? { count: 0, value: 0 };
  if (measure === 'count') entry.count += amount;
  else entry.value += amount;
  counts[event] = entry;
}

function parseCounts(hash: Record<string, string>): NotificationConversions {
  const conversions: NotificationConversions = { total: {}, byVariant: new Map() };
  for (const [field, text] of Object.entries(hash)) {
    const [measure, event, variant] = field.split('\n') as [string, string, string | undefined];
    if (variant === undefined) add(conversions.total, event, measure, Number(text));
    else {
      const counts = conversions.byVariant.get(variant) ?? {};
      add(counts, event, measure, Number(text));
      conversions.byVariant.set(variant, counts);
    }
  }
  return conversions;
}

/** The conversions of a page of one project's notifications, in one pipelined round trip. */
export async function readConversions(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  notificationIds: string[],
): Promise<Map<string, NotificationConversions>> {
  if (notificationIds.length === 0) return new Map();
  const { countsPrefix } = redisKeys.conversions(deps.config.queuePrefix, projectId);
  const pipeline = deps.redis.pipeline();
  for (const id of notificationIds) pipeline.hgetall(`${countsPrefix}${id}`);
  const results = (await pipeline.exec()) ?? [];
  return new Map(
    notificationIds.map((id, index) => {
      const [error, hash] = results[index] ?? [null, {}];
      if (error) throw error;
      return [id, parseCounts(hash as Record<string, string>)];
    }),
  );
}
