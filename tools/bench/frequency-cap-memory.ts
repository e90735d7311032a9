/**
 * npm run bench:cap-memory -- [--devices 1000000] [--sends 3] [--json]
 * The frequency cap's Redis memory: N devices of one project (36-character ids, as the SDK generates) each admitted for
 * `sends` notifications, in batches of 500 as the deliver workers admit them, with a cap of 10 per 720 hours (the
 * longest window, so nothing expires). Prints Redis's used_memory (INFO memory) before and after, their difference, and the time one
 * batch's admission takes. Target: under 200 MB at 1,000,000 devices sent 3 pushes.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { admitUnderCap } from '../../src/delivery/frequency-cap.ts';
import { createBlockingRedis } from '../../src/infra/redis.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { checkTarget, ratio } from './database-ceilings.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000000' },
    sends: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);
const sends = Number(values.sends);
const batchSize = 500;

const usedMemory = async (redis: ReturnType<typeof createBlockingRedis>) =>
  Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);

const bench = await openBenchEnvironment('cap-memory');
const redis = createBlockingRedis(bench.env.REDIS_URL!);
try {
  const deps = { redis, config: { queuePrefix: bench.env.QUEUE_PREFIX! } } as Parameters<typeof admitUnderCap>[0];
  const projectId = randomUUID();
  const deviceIds = Array.from({ length: deviceCount }, () => randomUUID());
  const before = await usedMemory(redis);
  const started = performance.now();
  let admitted = 0;
  for (let send = 0; send < sends; send++) {
    const check = { projectId, notificationId: randomUUID(), cap: { max: 10, windowHours: 720 }, ignoreCap: false };
    for (let start = 0; start < deviceCount; start += batchSize)
      admitted += (await admitUnderCap(deps, check, deviceIds.slice(start, start + batchSize))).size;
  }
  const batches = sends * Math.ceil(deviceCount / batchSize);
  const after = await usedMemory(redis);
  const megabytes = (after - before) / 1024 / 1024;
  // The target is for a million devices; a smaller run is scaled to it.
  const projected = (megabytes * 1_000_000) / deviceCount;
  const result = {
    devices: deviceCount,
    sends,
    admitted,
    usedMemoryBeforeMb: Number((before / 1024 / 1024).toFixed(1)),
    usedMemoryAfterMb: Number((after / 1024 / 1024).toFixed(1)),
    capMemoryMb: Number(megabytes.toFixed(1)),
    bytesPerDevice: Math.round((after - before) / deviceCount),
    projectedMbAtOneMillion: Number(projected.toFixed(1)),
    msPerBatchOf500: Number(((performance.now() - started) / batches).toFixed(2)),
    targets: [
      checkTarget(
        'frequency cap memory at 1,000,000 devices sent 3 pushes < 200 MB',
        ratio(projected, 200),
        projected < 200,
      ),
    ],
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else console.table(result);
} finally {
  redis.disconnect();
  await bench.close();
}
