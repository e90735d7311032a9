/**
 * npm run bench:segments -- --devices 100000
 * Local Redis and MongoDB-wire server, an ingress and one send worker process (no deliver worker: the delivery
 * batches stay queued, which is what is measured). Bulk-inserts N devices with tags (plan, score, lastSeenAt),
 * then measures the preview of a two-condition tag segment and the time from a segment send to its first delivery
 * batch in the deliver queue (and to the end of the fan-out). The ceilings, on the same server: the raw driver's
 * countDocuments of the same filter (the preview's dominant operation), as many runs as the preview had, and the
 * first batch of a raw cursor over it in _id order (what a send waits for before its first delivery batch).
 * Targets at 100,000 devices: preview < 1 s, first batch queued < 2 s.
 */
import { parseArgs } from 'node:util';
import { openBenchEnvironment } from './bench-environment.ts';
import { seedDevices } from './seed-devices.ts';
import { waitUntil } from './measure.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { queueNames } from '../../src/infra/queue-names.ts';
import { deliverJobId } from '../../src/queues/deliver.ts';
import { subscribedDevicesFilter, tagConditionFilter } from '../../src/segments/segment-filter.ts';
import { fanOutProjection } from '../../src/fan-out/fan-out-projection.ts';
import { checkTarget, deviceCountCeiling, deviceFirstBatchCeiling, ratio } from './database-ceilings.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000000' },
    'preview-runs': { type: 'string', default: '3' },
    'timeout-seconds': { type: 'string', default: '900' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);
const plans = ['free', 'pro', 'team'] as const;
const messageBody = 'Hello {{ device.tags.plan }}';
const day = 24 * 3600 * 1000;
// Progress on stderr: stdout is the one JSON line.
const log = (line: string) => process.stderr.write(`[segments] ${line}\n`);

const environment = await openBenchEnvironment('segments');
const deliverQueue = environment.queue(queueNames.deliver);
try {
  const { models, baseUrl } = environment;
  await environment.startIngress();
  environment.spawnProcess('worker-send');
  const project = await createProject(models, { name: 'bench segments', plan: 'team' });

  const seedStart = Date.now();
  const lastSeenBase = Date.now() - 90 * day;
  await seedDevices(
    models,
    project.projectId,
    deviceCount,
    (index) => ({
      plan: plans[index % plans.length]!,
      score: index % 100,
      lastSeenAt: lastSeenBase + (index % 90) * day,
    }),
    { label: 'segments' },
  );
  const seedMs = Date.now() - seedStart;
  log(`seeded ${deviceCount} devices in ${seedMs} ms (${Math.round(deviceCount / (seedMs / 1000))}/s)`);

  const api = async <Data>(method: string, path: string, body?: unknown): Promise<Data> => {
    const response = await fetch(`${baseUrl}/v1/projects/${project.projectId}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${project.apiKey}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data?: unknown; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data as Data;
  };

  const conditions = [
    { tag: 'plan', op: 'eq', value: 'pro' },
    { tag: 'score', op: 'gte', value: 50 },
  ] as const;
  const segment = await api<{ id: string }>('POST', '/segments', {
    name: 'pro with a high score',
    match: 'all',
    conditions,
  });
  const previewMs: number[] = [];
  let count = 0;
  for (let run = 0; run < Number(values['preview-runs']); run++) {
    const started = performance.now();
    count = (await api<{ count: number }>('GET', `/segments/${segment.id}/preview`)).count;
    previewMs.push(Math.round(performance.now() - started));
  }
  log(`preview: ${count} devices; ${previewMs.join(', ')} ms`);

  const sentAt = performance.now();
  const { id } = await api<{ id: string }>('POST', '/notifications', {
    targetType: 'segment',
    targetIds: [segment.id],
    body: messageBody,
  });
  const timeout = Number(values['timeout-seconds']) * 1000;
  await waitUntil(
    'the first delivery batch',
    async () => (await deliverQueue.getJob(deliverJobId(id, 0))) !== undefined,
    timeout,
    10,
  );
  const firstBatchMs = Math.round(performance.now() - sentAt);
  log(`first delivery batch queued ${firstBatchMs} ms after the send`);
  // The end of the fan-out is reported as null when it passes the timeout: the targets above are still answered.
  const fanOutMs = await waitUntil(
    'the end of the fan-out',
    async () => (await models.Notification.findById(id, { 'stats.targeted': 1 }).lean())?.stats?.targeted === count,
    timeout,
    100,
  ).then(
    () => Math.round(performance.now() - sentAt),
    (error: Error) => {
      log(error.message);
      return null;
    },
  );
  // The same filter the preview counts with, built by the product's own (pure) filter functions, counted raw.
  const rawFilter = subscribedDevicesFilter(project.projectId, [
    { $and: conditions.map((condition) => tagConditionFilter({ ...condition })) },
  ]);
  const countCeiling = await deviceCountCeiling(models, rawFilter, { concurrency: 1, operations: previewMs.length });
  // No condition at all: what reading every device costs this server, a floor under any count that cannot use an index.
  const scanCeiling = await deviceCountCeiling(models, {}, { concurrency: 1, operations: previewMs.length });
  const firstBatchCeiling = await deviceFirstBatchCeiling(models, rawFilter, fanOutProjection({ body: messageBody }), {
    concurrency: 1,
    operations: previewMs.length,
  });
  const bestPreviewMs = Math.min(...previewMs);
  const result = {
    devices: deviceCount,
    seedMs,
    segmentDevices: count,
    previewMs,
    rawCountMs: { p50: countCeiling.p50Ms, max: countCeiling.p99Ms },
    rawCountOfEveryDeviceMs: { p50: scanCeiling.p50Ms, max: scanCeiling.p99Ms },
    // Time ratio: preview time over the raw count's time (1 is the ceiling; higher is slower).
    previewOverRawCount: ratio(bestPreviewMs, countCeiling.p50Ms),
    firstBatchMs,
    rawFirstBatchMs: { p50: firstBatchCeiling.p50Ms, max: firstBatchCeiling.p99Ms },
    fanOutMs,
    ceilings: { count: countCeiling, countOfEveryDevice: scanCeiling, firstBatch: firstBatchCeiling },
    targets: [
      checkTarget(
        `segment preview at ${deviceCount} devices < 1 s (best of ${previewMs.length}, ms; the raw count takes ${countCeiling.p50Ms} ms, with no condition ${scanCeiling.p50Ms} ms)`,
        bestPreviewMs,
        bestPreviewMs < 1000,
      ),
      checkTarget(
        `segment preview at ${deviceCount} devices < 1 s (slowest, ms)`,
        Math.max(...previewMs),
        Math.max(...previewMs) < 1000,
      ),
      checkTarget(
        `first delivery batch queued < 2 s (ms; the raw cursor's first batch takes ${firstBatchCeiling.p50Ms} ms)`,
        firstBatchMs,
        firstBatchMs < 2000,
      ),
    ],
    services: environment.services.path,
  };
  process.stdout.write(`${JSON.stringify(result, null, values.json ? undefined : 2)}\n`);
} finally {
  await environment.close();
}
