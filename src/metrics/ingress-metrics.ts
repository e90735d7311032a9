import { Counter, Gauge, Histogram, Registry, type Metric, type MetricValueWithName } from 'prom-client';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import {
  deliveryCountField,
  deliveryResults,
  gatewayLatencyBuckets,
  gatewayNames,
  latencyBucketField,
  latencySumField,
} from './delivery-metrics.ts';
import { webhookCallResults } from './webhook-metrics.ts';

const queueStates = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'] as const;

export interface IngressMetrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

/**
 * What /metrics shows. Request durations are this process's own; delivery counts and gateway latency are read from
 * Redis, where every worker process adds to them; queue sizes are read from the queues at scrape time.
 */
export function createIngressMetrics(deps: Pick<Deps, 'redis' | 'queues' | 'config'>): IngressMetrics {
  const registry = new Registry();
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Ingress request duration by route pattern and response status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  new Gauge({
    name: 'push_queue_jobs',
    help: 'Jobs in each queue by state.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      await Promise.all(
        Object.values(deps.queues).map(async (queue) => {
          const counts = await queue.getJobCounts(...queueStates);
          for (const state of queueStates) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        }),
      );
    },
  });

  new Counter({
    name: 'push_deliveries_total',
    help: 'Push outcomes by gateway: sent, failed, unsubscribed, capped (the frequency cap), and retried (the gateway asked to try again later).',
    labelNames: ['gateway', 'result'],
    registers: [registry],
    async collect() {
      const stored = await deps.redis.hgetall(redisKeys.deliveryCounts(deps.config.queuePrefix));
      this.reset();
      for (const gateway of gatewayNames) {
        for (const result of deliveryResults)
          this.inc({ gateway, result }, Number(stored[deliveryCountField(gateway, result)] ?? 0));
      }
    },
  });

  new Counter({
    name: 'push_webhook_calls_total',
    help: 'Webhook calls by result: delivered (a 2xx), gone (a 410, the endpoint disabled), failed (retried).',
    labelNames: ['result'],
    registers: [registry],
    async collect() {
      const stored = await deps.redis.hgetall(redisKeys.webhookCalls(deps.config.queuePrefix));
      this.reset();
      for (const result of webhookCallResults) this.inc({ result }, Number(stored[result] ?? 0));
    },
  });

  registry.registerMetric(gatewayLatencyHistogram(deps) as unknown as Metric);

  return {
    registry,
    observeRequest: (method, route, status, seconds) =>
      requestDuration.observe({ method, route, status: String(status) }, seconds),
  };
}

/**
 * prom-client's Histogram can only observe, not be loaded with counts kept elsewhere, so this one is read from the
 * Redis hash the workers fill and handed to the registry in the shape its own histograms produce.
 */
function gatewayLatencyHistogram(deps: Pick<Deps, 'redis' | 'config'>) {
  const name = 'push_gateway_send_duration_seconds';
  const help = "Time a delivery batch spent in its gateway's send call (FCM sendEach, APNs HTTP/2 requests).";
  return {
    name,
    help,
    type: 'histogram',
    reset() {},
    async get() {
      const stored = await deps.redis.hgetall(redisKeys.gatewayLatency(deps.config.queuePrefix));
      const read = (field: string) => Number(stored[field] ?? 0);
      const values = gatewayNames.flatMap((gateway): MetricValueWithName<string>[] => {
        let calls = 0;
        const buckets = [...gatewayLatencyBuckets, '+Inf' as const].map((bound) => {
          calls += read(latencyBucketField(gateway, bound));
          return { metricName: `${name}_bucket`, labels: { gateway, le: bound }, value: calls };
        });
        return [
          ...buckets,
          { metricName: `${name}_sum`, labels: { gateway }, value: read(latencySumField(gateway)) },
          { metricName: `${name}_count`, labels: { gateway }, value: calls },
        ];
      });
      return { name, help, type: 'histogram', values, aggregator: 'sum' };
    },
  };
}
