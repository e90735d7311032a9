import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { GatewayName } from '../gateways/gateway.ts';
import { queueIncrements, type HashIncrement } from '../infra/hash-increments.ts';

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
 * The outcome counts and, when the gateway was called, how long the call took, as increments of the metrics hashes.
 * Deliveries happen in worker processes but are scraped from the ingress, so the counters live in Redis: one hash
 * per metric, incremented by whichever process ran the batch.
 */
export function deliveryMetricIncrements(
  prefix: string,
  gateway: GatewayName,
  counts: DeliveryCounts,
  gatewaySeconds: number | null,
): HashIncrement[] {
  const key = redisKeys.deliveryCounts(prefix);
  const increments: HashIncrement[] = deliveryResults
    .filter((result) => counts[result] > 0)
    .map((result) => ({ key, field: deliveryCountField(gateway, result), by: counts[result] }));
  if (gatewaySeconds !== null) {
    const latency = redisKeys.gatewayLatency(prefix);
    const bound = gatewayLatencyBuckets.find((upper) => gatewaySeconds <= upper) ?? '+Inf';
    increments.push({ key: latency, field: latencyBucketField(gateway, bound), by: 1 });
    increments.push({ key: latency, field: latencySumField(gateway), by: gatewaySeconds, float: true });
  }
  return increments;
}

/** Outcomes no gateway call reported (capped, expired, given up): a gateway call's go with its progress. */
export async function recordDeliveryMetrics(
  deps: Pick<Deps, 'redis' | 'config'>,
  gateway: GatewayName,
  counts: DeliveryCounts,
): Promise<void> {
  const increments = deliveryMetricIncrements(deps.config.queuePrefix, gateway, counts, null);
  if (increments.length === 0) return;
  const pipeline = deps.redis.multi();
  queueIncrements(pipeline, increments);
  await pipeline.exec();
}
