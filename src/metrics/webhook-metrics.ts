import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/** What became of a webhook call: a 2xx, a 410 (the endpoint disabled), or anything else (retried). */
export const webhookCallResults = ['delivered', 'gone', 'failed'] as const;
export type WebhookCallResult = (typeof webhookCallResults)[number];

/** Counted in Redis, as the delivery counts are: the calls are made by worker processes, scraped from the ingress. */
export async function countWebhookCall(deps: Pick<Deps, 'redis' | 'config'>, result: WebhookCallResult): Promise<void> {
  await deps.redis.hincrby(redisKeys.webhookCalls(deps.config.queuePrefix), result, 1);
}
