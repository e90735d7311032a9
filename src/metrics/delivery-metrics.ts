import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { GatewayName } from '../gateways/gateway.ts';

export const gatewayNames: GatewayName[] = ['fcm', 'apns', 'webpush'];
export const deliveryResults = ['sent', 'failed', 'unsubscribed', 'capped', 'retried'] as const;
export type DeliveryResult = (typeof deliveryResults)[number];
export type DeliveryCounts = Record<DeliveryResult, number>;

/** Upper bounds, in seconds, of the gateway latency histogram's buckets. */
export const gatewayLatencyBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const deliveryCountField = (gateway: GatewayName, result: DeliveryResult) => `${gateway}|${result}`;
/**
 * The calls whose latency falls in one bucket (above the bound before it, up to `bound`): the reader adds them up into
 * Prometheus's cumulative buckets, so a call increments one field, not every bucket above its latency.
 */
export const latencyBucketField = (gateway: GatewayName, bound: number | '+Inf') => `${gateway}|in|${bound}`;
export const latencySumField = (gateway: GatewayName) => `${gateway}|sum`;

export function emptyDeliveryCounts(): DeliveryCounts {
  return { sent: 0, failed: 0, unsubscribed: 0, capped: 0, retried: 0 };
}

/**
 * One round trip per batch run: the outcome counts and, when the gateway was called, how long the call took.
 * Deliveries happen in worker processes but are scraped from the ingress, so the counters live in Redis: one hash
 * per metric, incremented by whichever process ran the batch.
 */
export async function recordDeliveryMetrics(
  deps: Pick<Deps, 'redis' | 'config'>,
  gateway: GatewayName,
  counts: DeliveryCounts,
  gatewaySeconds: number | null,
): Promise<void> {
  const prefix = deps.config.queuePrefix;
  const pipeline = deps.redis.multi();
  for (const result of deliveryResults) {
    if (counts[result] > 0)
      pipeline.hincrby(redisKeys.deliveryCounts(prefix), deliveryCountField(gateway, result), counts[result]);
  }
  if (gatewaySeconds !== null) {
    const key = redisKeys.gatewayLatency(prefix);
    const bound = gatewayLatencyBuckets.find((upper) => gatewaySeconds <= upper) ?? '+Inf';
    pipeline.hincrby(key, latencyBucketField(gateway, bound), 1);
    pipeline.hincrbyfloat(key, latencySumField(gateway), gatewaySeconds);
  }
  await pipeline.exec();
}
