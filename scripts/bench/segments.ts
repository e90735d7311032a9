/**
 * npm run bench:segments -- --devices 100000
 * Local Redis and MongoDB-wire server, an ingress and one send worker process (no deliver worker: the delivery
 * batches stay queued, which is what is measured). Bulk-inserts N devices with tags (plan, score, lastSeenAt),
 * then measures the preview of a two-condition tag segment and the time from a segment send to its first delivery
 * batch in the deliver queue (and to the end of the fan-out).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { openBenchEnvironment, waitForHttp } from './bench-environment.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { createModels } from '../../src/models/index.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { deviceKey, platforms } from '../../src/models/device.ts';
import { queueNames } from '../../src/queues/names.ts';
import { deliverJobId } from '../../src/delivery/deliver-job.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000000' },
    'preview-runs': { type: 'string', default: '3' },
    'timeout-seconds': { type: 'string', default: '900' },
  },
});
const deviceCount = Number(values.devices);
const plans = ['free', 'pro', 'team'] as const;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function poll<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs: number, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

const environment = await openBenchEnvironment('segments');
const env: NodeJS.ProcessEnv = { ...environment.env, CREDENTIALS_KEY: randomBytes(32).toString('hex'), PUSH_GATEWAY: 'sandbox' };
const mongo = await connectMongo(env.MONGODB_URL!);
const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: null });
const deliverQueue = new Queue(queueNames.deliver, { connection: redis, prefix: env.QUEUE_PREFIX });
try {
  const models = createModels(mongo);
  await models.Device.createCollection();
  await models.Device.createIndexes();
  const project = await createProject(models, { name: 'bench segments', plan: 'team' });

  const seedStart = Date.now();
  const chunk = 10_000;
  const lastSeenBase = Date.now() - 90 * 24 * 3600 * 1000;
  for (let start = 0; start < deviceCount; start += chunk) {
    const now = new Date();
    const documents = Array.from({ length: Math.min(chunk, deviceCount - start) }, (_, offset) => {
      const index = start + offset;
      const deviceId = `device-${String(index).padStart(8, '0')}`;
      return {
        _id: deviceKey(project.projectId, deviceId),
        projectId: project.projectId,
        deviceId,
        platform: platforms[index % platforms.length]!,
        pushToken: `bench-${index}`,
        userId: `user-${index}`,
        tags: { plan: plans[index % plans.length]!, score: index % 100, lastSeenAt: lastSeenBase + (index % 90) * 24 * 3600 * 1000 },
        isSubscribed: index % 50 !== 0,
        unsubscribedAt: null,
        unsubscribeReason: null,
        rejectedPushToken: null,
        createdAt: now,
        updatedAt: now,
      };
    });
    await models.Device.collection.insertMany(documents as never[], { ordered: false });
  }
  const seedMs = Date.now() - seedStart;
  log(`seeded ${deviceCount} devices in ${seedMs} ms (${Math.round(deviceCount / (seedMs / 1000))}/s)`);

  environment.spawnNode('src/server.ts', env);
  environment.spawnNode('workers/send.ts', env);
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  await waitForHttp(`${baseUrl}/readyz`, 120_000);
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/v1/projects/${project.projectId}${path}`, {
      method,
      headers: { authorization: `Bearer ${project.apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data?: any; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };

  const segment = await api('POST', '/segments', {
    name: 'pro with a high score',
    match: 'all',
    conditions: [
      { tag: 'plan', op: 'eq', value: 'pro' },
      { tag: 'score', op: 'gte', value: 50 },
    ],
  });
  const previewMs: number[] = [];
  let count = 0;
  for (let run = 0; run < Number(values['preview-runs']); run++) {
    const started = performance.now();
    count = (await api('GET', `/segments/${segment.id}/preview`)).count;
    previewMs.push(Math.round(performance.now() - started));
  }
  log(`preview: ${count} devices; ${previewMs.join(', ')} ms`);

  // Let the send worker finish starting (index checks) so that the timing is of the send alone.
  await new Promise((done) => setTimeout(done, 2000));
  const sentAt = performance.now();
  const { id } = await api('POST', '/notifications', { targetType: 'segment', targetIds: [segment.id], body: 'Hello {{ device.tags.plan }}' });
  const timeout = Number(values['timeout-seconds']) * 1000;
  await poll('the first delivery batch', () => deliverQueue.getJob(deliverJobId(id, 0)), timeout);
  const firstBatchMs = Math.round(performance.now() - sentAt);
  log(`first delivery batch queued ${firstBatchMs} ms after the send`);
  const targeted = await poll(
    'the end of the fan-out',
    async () => {
      const notification = await models.Notification.findById(id, { 'stats.targeted': 1 }).lean();
      return notification?.stats?.targeted === count ? count : null;
    },
    timeout,
    100,
  );
  const fanOutMs = Math.round(performance.now() - sentAt);
  log(
    JSON.stringify({
      devices: deviceCount,
      seedMs,
      segmentDevices: count,
      previewMs,
      firstBatchMs,
      fanOutMs,
      targeted,
      services: environment.services.path,
    }),
  );
} finally {
  await deliverQueue.close();
  redis.disconnect();
  await mongo.close();
  await environment.close();
}
