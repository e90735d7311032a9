/**
 * npm run bench:render -- [--devices 10000] [--threads 2] [--batch 500] [--rounds 3] [--json]
 *
 * What the render pool costs per push: a normal personalised template (title, body and url, three tags and the
 * send's data) rendered for N devices on the main thread as the delivery worker did before the pool, then through
 * the pool in tasks of a delivery batch's size (as delivery renders), then one task per device (what batching saves).
 * No services: a micro-benchmark of one process. Each variant runs `--rounds` times after a warm-up; the best counts.
 */
import { parseArgs } from 'node:util';
import { parseContent, renderContent, type MessageContent } from '../../src/rendering/message-content.ts';
import { personalizationScope, type ScopeDevice } from '../../src/rendering/personalization-scope.ts';
import { RenderPool } from '../../src/rendering/render-pool.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '10000' },
    threads: { type: 'string', default: '2' },
    batch: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);
const batchSize = Number(values.batch);
const rounds = Number(values.rounds);

const content: MessageContent = {
  title: 'Hello {{ device.tags.name | default: "there" }}',
  body: '{{ data.offer }} on {{ device.tags.plan | upcase }}{% if device.tags.visits > 3 %}, welcome back{% endif %}',
  url: 'https://example.com/offers/{{ device.tags.plan }}?d={{ device.id }}',
  imageUrl: null,
};
const data = { offer: '20% off' };
const devices: ScopeDevice[] = Array.from({ length: deviceCount }, (_, index) => ({
  deviceId: `device-${index}`,
  userId: `user-${index}`,
  tags: { name: `Name ${index}`, plan: index % 2 === 0 ? 'pro' : 'free', visits: index % 10 },
}));
const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * The best of the rounds, after one warm-up: its wall time and the time the main thread was busy in it (its event
 * loop's utilisation), in ms. The busy time is what other requests of the process wait behind.
 */
async function best(run: () => Promise<unknown> | unknown): Promise<{ ms: number; mainThreadMs: number }> {
  await run();
  let fastest = { ms: Number.POSITIVE_INFINITY, mainThreadMs: 0 };
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    const utilisation = performance.eventLoopUtilization();
    await run();
    const ms = performance.now() - started;
    // A synchronous run never yields to the loop, which then counts it as idle: all of it was the main thread's.
    const busy = performance.eventLoopUtilization(utilisation).active;
    if (ms < fastest.ms) fastest = { ms, mainThreadMs: busy > 0 ? busy : ms };
  }
  return fastest;
}

const parsed = parseContent(content);
const inThreadMs = await best(() => {
  for (const device of devices) renderContent(parsed, personalizationScope(device, data));
});

const pool = new RenderPool({ threads: Number(values.threads), timeoutMs: 10_000 });
const request = { content, data, entryEvent: null };
// One send: every batch is the same project's, whose renders the pool runs one at a time.
const sameProject = { projectId: 'bench' };
// Delivery runs up to 16 batches at once per worker: the tasks of one send go to the pool together.
const batchedMs = await best(() =>
  Promise.all(chunks(devices, batchSize).map((batch) => pool.render(request, batch, sameProject))),
);
const perDeviceMs = await best(() => Promise.all(devices.map((device) => pool.render(request, [device], sameProject))));
await pool.close();

const perPush = ({ ms, mainThreadMs }: { ms: number; mainThreadMs: number }) => ({
  wallMicroseconds: Number(((ms * 1000) / deviceCount).toFixed(2)),
  mainThreadMicroseconds: Number(((mainThreadMs * 1000) / deviceCount).toFixed(2)),
});
const summary = {
  devices: deviceCount,
  threads: Number(values.threads),
  batch: batchSize,
  perPush: { inThread: perPush(inThreadMs), poolBatched: perPush(batchedMs), poolPerDevice: perPush(perDeviceMs) },
};
process.stdout.write(`${JSON.stringify(summary, null, values.json ? undefined : 2)}\n`);
