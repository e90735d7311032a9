import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** What became of a webhook call: a 2xx, a 410 (the endpoint disabled), or anything else (retried). */
export const webhookCallResults = ['delivered', 'gone', 'failed'] as const;
export type WebhookCallResult = (typeof webhookCallResults)[number];

/**
 * Counted in Redis, as the delivery counts are: the calls are made by worker processes, scraped from the ingress. The
 * calls given are counted in one round trip.
 */
export async function countWebhookCalls(
  deps: Pick<Deps, 'redis' | 'config'>,
  results: WebhookCallResult[],
): Promise<void> {
  const key = redisKeys.webhookCalls(deps.config.queuePrefix);
  const counts = new Map<WebhookCallResult, number>();
  for (const result of results) counts.set(result, (counts.get(result) ?? 0) + 1);
  const pipeline = deps.redis.pipeline();
  for (const [result, count] of counts) pipeline.hincrby(key, result, count);
  await pipeline.exec();
}
