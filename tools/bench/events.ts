/**
 * npm run bench:events [-- --seconds 60 --connections 16 --worker-processes 1 --worker-concurrency 8 --rate <events/s>]
 *
 * Starts Redis and MongoDB the way the tests do, an ingress and an event-ingest worker as child processes, then
 * posts requests of 100 events for a fixed time, drawn at random for each request over the users and one device of
 * each, any of 5 types (10,000 (subject, type) pairs by default). Reports events/s accepted at the ingress, events/s
 * stored by the worker, and the queue depth sampled every second; then how long the worker needed to drain what was
 * left and to flush the daily counts still waiting in Redis (the flush the next event or the maintenance sweep would
 * make), so that "stored" includes every counter document the run's events cost.
 * Then the ceiling, on the same server: raw insertMany of event documents in batches of 100 (one request's events)
 * into a scratch collection with the events collection's indexes, at the workers' total concurrency, for the same
 * seconds. Target: events stored/s ≥ 70% of it.
 * --conversions configures `purchase` (a fifth of the events) as the project's one conversion event (CONTRACTS §19),
 * so that each of those events is attributed: compare with a run without it (issue 49: ≥ 0.8 of it).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { provideServices } from '../../local/services/provide-services.ts';
import { startManagedProcess, type ManagedProcess } from '../../local/services/managed-process.ts';
import { findFreePort } from '../../local/services/free-port.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import { createBlockingRedis } from '../../src/infra/redis.ts';
import { createModels } from '../../src/models/index.ts';
import { seedDevices } from './seed-devices.ts';
import { checkTarget, eventInsertCeiling, ratio } from './database-ceilings.ts';
import { queueDepth, waitUntil } from './measure.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { closeQueues, createQueues } from '../../src/queues/create-queues.ts';
import { flushCounts } from '../../src/events/flush-counts.ts';
import { loadConfig } from '../../src/config.ts';

const { values: options } = parseArgs({
  options: {
    // A minute, the worker's interval between flushes of a project's daily counts: the run measures one whole flush
    // interval as well as the final flush.
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '16' },
    'worker-processes': { type: 'string', default: '1' },
    'worker-concurrency': { type: 'string', default: '8' },
    /** Events per second to offer in total; unlimited when absent, which measures the ingress. */
    rate: { type: 'string' },
    /** Devices seeded, two per user; events name users and devices among them. */
    devices: { type: 'string', default: '2000' },
    json: { type: 'boolean', default: false },
    conversions: { type: 'boolean', default: false },
  },
});
const seconds = Number(options.seconds);
const connections = Number(options.connections);
const eventsPerRequest = 100;
const users = Math.max(1, Math.floor(Number(options.devices) / 2));
const root = resolve(import.meta.dirname, '../..');
// Progress on stderr: stdout is the result (one JSON line with --json).
const log = (line: string) => process.stderr.write(`${line}\n`);

const services = await provideServices({
  stateDir: resolve(root, '.state/bench-events'),
  log: (line) => log(`[services] ${line}`),
});
const children: ManagedProcess[] = [];
const closers: Array<() => Promise<unknown>> = [];

try {
  const port = await findFreePort();
  const suffix = randomBytes(3).toString('hex');
  Object.assign(process.env, {
    REDIS_URL: services.redisUrl,
    MONGODB_URL: withDatabase(services.mongoUrl, `bench_${suffix}`),
    QUEUE_PREFIX: `bench${suffix}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    EVENT_INGEST_CONCURRENCY: options['worker-concurrency'],
  });
  const config = loadConfig();
  const mongo = await connectMongo(config.mongoUrl);
  closers.push(() => mongo.close());
  const models = createModels(mongo);
  const redis = createBlockingRedis(services.redisUrl);
  closers.push(async () => redis.disconnect());
  const queues = createQueues(redis, config);
  closers.push(() => closeQueues(queues));
  const queue = queues.eventIngest;

  const node = process.execPath;
  children.push(await startManagedProcess({ name: 'ingress', command: node, args: [resolve(root, 'src/server.ts')] }));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(
    () => `the ingress to answer /readyz; it said:\n${children[0]!.outputTail()}`,
    async () => (await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok === true,
    30_000,
  );
  // The ingress built the indexes; devices are written directly, as their creation is not what is measured.
  const project = await createProject(models, { name: 'bench', plan: 'business' });
  await seedDevices(models, project.projectId, users * 2, () => ({}), { devicesPerUser: 2, label: 'events' });
  if (options.conversions) {
    const settings = await fetch(`${baseUrl}/v1/projects/${project.projectId}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversions: [{ event: 'purchase', valueField: 'amount' }] }),
    });
    if (!settings.ok) throw new Error(`PATCH settings answered ${settings.status}: ${await settings.text()}`);
  }
  for (let index = 0; index < Number(options['worker-processes']); index++) {
    children.push(
      await startManagedProcess({
        name: `worker-${index}`,
        command: node,
        args: [resolve(root, 'workers/event-ingest.ts')],
      }),
    );
  }

  const path = `/v1/projects/${project.projectId}/events`;
  const headers = { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' };

  log(
    `load: ${connections} concurrent clients posting ${eventsPerRequest} events per request for ${seconds} s${options.rate ? ` at ${options.rate} events/s` : ''}`,
  );
  const startedAt = Date.now();
  const deadline = startedAt + seconds * 1000;
  let acceptedEvents = 0;
  let failedRequests = 0;
  // Stored events are derived from the queue (each job holds one request's events): counting documents would
  // slow down the very worker being measured.
  const samples: Array<{ second: number; depth: number; storedEvents: number }> = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((resolveTick) => setTimeout(resolveTick, 1000));
      const depth = await queueDepth(queue);
      const storedEvents = storedSoFar(acceptedEvents, depth);
      samples.push({ second: Math.round((Date.now() - startedAt) / 1000), depth, storedEvents });
      log(
        `  t=${String(samples.at(-1)!.second).padStart(3)} s  accepted=${acceptedEvents}  stored≈${storedEvents}  queue depth=${depth} jobs`,
      );
    }
  })();
  const requestEveryMs =
    options.rate === undefined ? 0 : (connections * eventsPerRequest * 1000) / Number(options.rate);
  await Promise.all(
    Array.from({ length: connections }, async (_, client) => {
      for (let request = client; Date.now() < deadline; request += connections) {
        const due = startedAt + (request / connections) * requestEveryMs;
        if (due > Date.now()) await new Promise((resolveDue) => setTimeout(resolveDue, due - Date.now()));
        const response = await fetch(baseUrl + path, {
          method: 'POST',
          headers,
          // Drawn afresh for each request: replayed bodies would name only their own few thousand (subject, type)
          // pairs, and the daily counts would merge far more than traffic over 10,000 pairs does.
          body: JSON.stringify({ events: Array.from({ length: eventsPerRequest }, randomEvent) }),
        });
        const answer = (await response.json()) as { data?: { success: number } };
        if (response.ok && answer.data) acceptedEvents += answer.data.success;
        else failedRequests += 1;
      }
    }),
  );
  const loadSeconds = (Date.now() - startedAt) / 1000;
  const storedAtEnd = storedSoFar(acceptedEvents, await queueDepth(queue));
  log(`drain: waiting for the worker to store the rest`);
  await waitUntil('the event-ingest queue to drain', async () => (await queueDepth(queue)) === 0, 600_000);
  await flushCounts({ models, redis, config }, project.projectId);
  const drainedAt = Date.now();
  sampling = false;
  await sampler;
  for (const child of children.slice(1))
    if (child.outputTail().trim() !== '') log(`${child.name} said:\n${child.outputTail()}`);
  const storedTotal = await models.Event.countDocuments({ projectId: project.projectId });
  const counterDocuments = await models.EventCounter.countDocuments({ projectId: project.projectId });
  const depths = samples.filter((sample) => sample.second <= seconds).map((sample) => sample.depth);
  const result = {
    conversions: options.conversions,
    seconds: Number(loadSeconds.toFixed(1)),
    acceptedEvents,
    failedRequests,
    acceptedPerSecond: Math.round(acceptedEvents / loadSeconds),
    storedDuringLoadPerSecond: Math.round(storedAtEnd / loadSeconds),
    storedTotal,
    counterDocuments,
    counterDocumentsPerEvent: ratio(counterDocuments, storedTotal),
    storedPerSecondUntilDrained: Math.round(storedTotal / ((drainedAt - startedAt) / 1000)),
    drainSecondsAfterLoad: Number(((drainedAt - startedAt) / 1000 - loadSeconds).toFixed(1)),
    queueDepthMax: Math.max(0, ...depths),
    queueDepthLast: depths.at(-1) ?? 0,
  };
  const workerConcurrency = Number(options['worker-processes']) * Number(options['worker-concurrency']);
  const ceiling = await eventInsertCeiling(mongo.db!, project.projectId, { concurrency: workerConcurrency, seconds });
  const stored = result.storedPerSecondUntilDrained;
  const summary = {
    ...result,
    insertCeilingPerSecond: ceiling.perSecond,
    ratioToCeiling: ratio(stored, ceiling.perSecond),
    ratioDuringLoadToCeiling: ratio(result.storedDuringLoadPerSecond, ceiling.perSecond),
    ceilings: { eventInsert: ceiling },
    targets: [
      checkTarget(
        'events stored/s (until drained and counted) ≥ 0.7 × raw event-insert ceiling',
        ratio(stored, ceiling.perSecond),
        stored >= 0.7 * ceiling.perSecond,
      ),
    ],
  };
  process.stdout.write(`${JSON.stringify(summary, null, options.json ? undefined : 2)}\n`);
  if (storedTotal !== acceptedEvents)
    throw new Error(`accepted ${acceptedEvents} events but ${storedTotal} were stored`);
} finally {
  for (const child of children.reverse()) await child.stop();
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await services.stop();
}

function randomEvent(_: unknown, index: number) {
  const user = Math.floor(Math.random() * users);
  const onDevice = index % 2 === 0;
  return {
    type: ['purchase', 'view', 'add_to_cart', 'search', 'login'][index % 5],
    subjectType: onDevice ? 'device' : 'user',
    subjectId: onDevice ? `device-${user * 2}` : `user-${user}`,
    data: {
      amount: Math.round(Math.random() * 10_000) / 100,
      sku: `sku-${index}`,
      at: new Date().toISOString(),
      tags: ['a', 'b'],
    },
  };
}

function storedSoFar(accepted: number, depth: number): number {
  return Math.max(0, accepted - depth * eventsPerRequest);
}
