/**
 * npm run bench:import [-- --devices 100000] [--ceiling-rows N]
 *
 * Starts Redis and MongoDB the way the tests do, the ingress and the Procfile's device-import worker. Measures, in
 * the same run on the same server, the ceiling: the same rows written by raw unordered bulkWrite upserts of 500 into a
 * project of their own; then the product: the rows uploaded as NDJSON (streamed) to POST /device-imports and applied
 * by the worker. Reports rows/s of each and their ratio, the worker's peak RSS and the ingress's peak RSS. With
 * --ceiling-rows the ceilings write only the first N rows (their rate, into an empty project, is the higher one, so
 * the ratio errs low): a million raw upserts on SecantusDB take most of an hour. The export is bench:export's.
 */
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ensureIndexes } from '../../src/models/ensure-indexes.ts';
import { loadConfig } from '../../src/config.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { peakRssMiB, waitUntil } from './measure.ts';

const { values: options } = parseArgs({
  options: { devices: { type: 'string', default: '100000' }, 'ceiling-rows': { type: 'string' } },
});
const devices = Number(options.devices);
const ceilingRows = Math.min(devices, Number(options['ceiling-rows'] ?? devices));
const log = (line: string) => process.stderr.write(`${line}\n`);
const row = (index: number) => ({
  id: `d${index}`,
  platform: index % 2 ? 'android' : 'ios',
  pushToken: `token-${index}`,
  userId: `user-${index}`,
  tags: { plan: index % 3 ? 'free' : 'pro', visits: index % 100 },
});

async function* ndjson(): AsyncIterable<string> {
  for (let index = 0; index < devices; index += 1) yield `${JSON.stringify(row(index))}\n`;
}

const bench = await openBenchEnvironment('import');
Object.assign(process.env, bench.env);
const config = loadConfig();
try {
  const { models } = bench;
  await ensureIndexes(models);
  const ingress = await bench.startIngress();

  // Raw unordered bulkWrites of 500 into a project of their own: upserts (the brief's ceiling), then plain inserts
  // (what the import writes for a new device), seconds each.
  const ceiling = async (kind: 'upsert' | 'insert') => {
    const ceilingProject = `ceiling-${kind}-${Date.now()}`;
    const started = performance.now();
    for (let start = 0; start < ceilingRows; start += 500) {
      const now = new Date();
      const writes = Array.from({ length: Math.min(500, ceilingRows - start) }, (_, offset) => {
        const { id, ...fields } = row(start + offset);
        const _id = deviceKey(ceilingProject, id);
        const document = { projectId: ceilingProject, deviceId: id, ...fields, isSubscribed: true, createdAt: now };
        return kind === 'upsert'
          ? { updateOne: { filter: { _id }, update: { $set: document }, upsert: true } }
          : { insertOne: { document: { _id, ...document } } };
      });
      await models.Device.collection.bulkWrite(writes as never, { ordered: false });
    }
    return (performance.now() - started) / 1000;
  };
  const ceilingSeconds = await ceiling('upsert');
  const insertSeconds = await ceiling('insert');

  const project = await createProject(models, { name: 'import bench', plan: 'business' }, config.credentialsKey);
  const uploadStart = performance.now();
  const uploaded = await fetch(`${bench.baseUrl}/v1/projects/${project.projectId}/device-imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/x-ndjson' },
    body: Readable.toWeb(Readable.from(ndjson())) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const { data } = (await uploaded.json()) as { data: { id: string } };
  const uploadSeconds = (performance.now() - uploadStart) / 1000;
  log(`uploaded ${devices} rows in ${uploadSeconds.toFixed(1)} s; applying`);
  const worker = bench.spawnProcess('worker-device-import');
  const applyStart = performance.now();
  let workerPeak = 0;
  await waitUntil(
    'the import to complete',
    async () => {
      workerPeak = Math.max(workerPeak, await peakRssMiB(worker.pid));
      const state = await models.DeviceImport.findById(data.id, { status: 1 }).lean();
      return state?.status === 'completed' || state?.status === 'failed';
    },
    3_600_000,
    200,
  );
  const applySeconds = (performance.now() - applyStart) / 1000;
  const done = await models.DeviceImport.findById(data.id).lean();
  const productRate = devices / applySeconds;
  const ceilingRate = ceilingRows / ceilingSeconds;
  console.log(
    `import: ${devices} rows (${done?.status}, created ${done?.created}, failed ${done?.failed}) applied in ` +
      `${applySeconds.toFixed(1)} s = ${Math.round(productRate)} rows/s; raw bulkWrite upserts of the same rows ` +
      `${ceilingSeconds.toFixed(1)} s = ${Math.round(ceilingRate)} rows/s; product/ceiling ${(productRate / ceilingRate).toFixed(2)}; ` +
      `raw inserts ${Math.round(ceilingRows / insertSeconds)} rows/s, product/inserts ${((productRate * insertSeconds) / ceilingRows).toFixed(2)}; ` +
      `worker peak RSS ${workerPeak} MiB; ingress peak RSS ${await peakRssMiB(ingress.pid)} MiB (upload ${uploadSeconds.toFixed(1)} s)`,
  );
} finally {
  await bench.close();
}
