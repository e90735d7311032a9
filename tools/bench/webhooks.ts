/**
 * npm run bench:webhooks [-- --events 5000 --worker-concurrency 32]
 *
 * Starts Redis and MongoDB the way the tests do and one webhook worker as a child process, with a receiver on
 * loopback answering 200 (WEBHOOKS_ALLOW_PRIVATE). Queues `events` message.failed events for one endpoint, as a send's
 * batches do (addBulk of 500), and reports the events delivered per second and the delivery lag, from the event's
 * timestamp to its arrival at the receiver (p50, p99, max).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { provideServices } from '../../local/services/provide-services.ts';
import { startManagedProcess, type ManagedProcess } from '../../local/services/managed-process.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import { createBlockingRedis } from '../../src/infra/redis.ts';
import { createModels } from '../../src/models/index.ts';
import { ensureIndexes } from '../../src/models/ensure-indexes.ts';
import { closeQueues, createQueues } from '../../src/queues/create-queues.ts';
import { loadConfig } from '../../src/config.ts';
import { WebhookStore } from '../../src/webhooks/webhook-store.ts';
import { publishWebhookEvents } from '../../src/webhooks/publish-events.ts';
import { messageFailed } from '../../src/webhooks/webhook-events.ts';
import { waitUntil } from './measure.ts';

const { values: options } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    'worker-concurrency': { type: 'string', default: '32' },
  },
});
const events = Number(options.events);
const root = resolve(import.meta.dirname, '../..');
const log = (line: string) => process.stderr.write(`${line}\n`);

const services = await provideServices({
  stateDir: resolve(root, '.state/bench-webhooks'),
  log: (line) => log(`[services] ${line}`),
});
const children: ManagedProcess[] = [];
const closers: Array<() => Promise<unknown>> = [];
try {
  const lags: number[] = [];
  let firstAt = 0;
  let lastAt = 0;
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = Date.now();
      firstAt ||= now;
      lastAt = now;
      lags.push(now - Date.parse(JSON.parse(Buffer.concat(chunks).toString()).timestamp));
      response.end();
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  closers.push(() => new Promise((closed) => receiver.close(closed)));
  const suffix = randomBytes(3).toString('hex');
  Object.assign(process.env, {
    REDIS_URL: services.redisUrl,
    MONGODB_URL: withDatabase(services.mongoUrl, `bench_${suffix}`),
    QUEUE_PREFIX: `bench${suffix}`,
    LOG_LEVEL: 'warn',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONCURRENCY: options['worker-concurrency'],
  });
  const config = loadConfig();
  const mongo = await connectMongo(config.mongoUrl);
  closers.push(() => mongo.close());
  const models = createModels(mongo);
  await ensureIndexes(models);
  const redis = createBlockingRedis(services.redisUrl);
  closers.push(async () => redis.disconnect());
  const queues = createQueues(redis, config);
  closers.push(() => closeQueues(queues));
  const projectId = `bench-${suffix}`;
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  await new WebhookStore({ models, config }).create(projectId, { url, events: ['message.failed'] });
  children.push(
    await startManagedProcess({
      name: 'webhook',
      command: process.execPath,
      args: [resolve(root, 'workers/webhook.ts')],
    }),
  );

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
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  const seconds = Math.max(lastAt - firstAt, 1) / 1000;
  console.log(
    `webhooks: ${events} events in ${seconds.toFixed(1)} s = ${Math.round(events / seconds)} events/s; ` +
      `lag from event to receiver p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)} ms`,
  );
} finally {
  for (const child of children.reverse()) await child.stop();
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await services.stop();
}
