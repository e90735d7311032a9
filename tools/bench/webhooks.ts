/**
 * npm run bench:webhooks [-- --events 5000 --worker-concurrency 32]
 *
 * Starts Redis and MongoDB the way the tests do and the Procfile's webhook worker, with a receiver on
 * loopback answering 200 (WEBHOOKS_ALLOW_PRIVATE). Queues `events` message.failed events for one endpoint, as a send's
 * batches do (addBulk of 500), and reports the events delivered per second and the delivery lag, from the event's
 * timestamp to its arrival at the receiver (p50, p99, max).
 */
import { parseArgs } from 'node:util';
import { ensureIndexes } from '../../src/models/ensure-indexes.ts';
import { createBlockingRedis } from '../../src/infra/redis.ts';
import { closeQueues, createQueues } from '../../src/queues/create-queues.ts';
import { loadConfig } from '../../src/config.ts';
import { WebhookStore } from '../../src/webhooks/webhook-store.ts';
import { publishWebhookEvents } from '../../src/webhooks/publish-events.ts';
import { messageFailed } from '../../src/webhooks/webhook-events.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { percentile } from './database-ceilings.ts';
import { waitUntil } from './measure.ts';
import { startBenchReceiver } from './webhook-receiver.ts';

const { values: options } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    'worker-concurrency': { type: 'string', default: '32' },
  },
});
const events = Number(options.events);
const log = (line: string) => process.stderr.write(`${line}\n`);

const bench = await openBenchEnvironment('webhooks');
const lags: number[] = [];
let firstAt = 0;
let lastAt = 0;
const receiver = await startBenchReceiver((event, arrivedAt) => {
  firstAt ||= arrivedAt;
  lastAt = arrivedAt;
  lags.push(arrivedAt - Date.parse(event.timestamp));
});
const redis = createBlockingRedis(bench.services.redisUrl);
Object.assign(process.env, bench.env, { WEBHOOKS_ALLOW_PRIVATE: 'true' });
const config = loadConfig();
const queues = createQueues(redis, config);
try {
  const { models } = bench;
  await ensureIndexes(models);
  const projectId = `bench-${Date.now()}`;
  await new WebhookStore({ models, config, redis }).create(projectId, {
    url: receiver.url,
    events: ['message.failed'],
  });
  bench.spawnProcess('worker-webhook', {
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONCURRENCY: options['worker-concurrency'],
  });

  log(`queueing ${events} events in batches of 500`);
  for (let start = 0; start < events; start += 500) {
    const batch = Array.from({ length: Math.min(500, events - start) }, (_, index) =>
      messageFailed('bench', `d${start + index}`, 'refused', new Date()),
    );
    await publishWebhookEvents({ models, queues }, projectId, batch);
  }
  await waitUntil(
    () => `all ${events} events to arrive; ${lags.length} did`,
    async () => lags.length >= events,
    600_000,
  );
  const sorted = [...lags].sort((a, b) => a - b);
  const seconds = Math.max(lastAt - firstAt, 1) / 1000;
  console.log(
    `webhooks: ${events} events in ${seconds.toFixed(1)} s = ${Math.round(events / seconds)} events/s; ` +
      `lag from event to receiver p50 ${percentile(sorted, 0.5)} ms, p99 ${percentile(sorted, 0.99)} ms, ` +
      `max ${sorted.at(-1)} ms`,
  );
} finally {
  await closeQueues(queues);
  redis.disconnect();
  await receiver.close();
  await bench.close();
}
