/**
 * npm run bench:send -- --devices 10000
 * Local Redis and MongoDB-wire server, the sandbox gateways, an ingress and one send and one deliver worker process.
 * Registers N devices (one per user, bulk-inserted), sends to them by userId in chunks of 100 users on a team project,
 * and reports deliveries per second from the first POST to the last sandbox receipt, and the workers' peak RSS.
 */
import { parseArgs } from 'node:util';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { peakRssMiB, waitUntil } from './measure.ts';
import { seedDevices } from './seed-devices.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
    'timeout-seconds': { type: 'string', default: '600' },
  },
});
const deviceCount = Number(values.devices);
const postConcurrency = Number(values.concurrency);
const usersPerSend = 100;
const log = (line: string) => process.stdout.write(`${line}\n`);

const bench = await openBenchEnvironment('send', { sandbox: true });
const sandbox = bench.sandbox!;
try {
  const { models, baseUrl } = bench;
  await bench.startIngress();
  const sendWorker = bench.spawnNode('workers/send.ts');
  const deliverWorker = bench.spawnNode('workers/deliver.ts');

  const project = await createProject(models, { name: 'bench', plan: 'team' });
  const registerStart = Date.now();
  await seedDevices(models, project.projectId, deviceCount, (index) => ({ name: `User ${index}` }));
  log(`registered ${deviceCount} devices in ${Date.now() - registerStart} ms`);
  // Let both workers finish starting (index checks) so that the timing is of the sends alone.
  await new Promise((done) => setTimeout(done, 2000));

  const sends = Math.ceil(deviceCount / usersPerSend);
  let nextSend = 0;
  let failures = 0;
  const firstPostAt = Date.now();
  async function poster(): Promise<void> {
    while (nextSend < sends) {
      const index = nextSend++;
      const userIds = Array.from({ length: Math.min(usersPerSend, deviceCount - index * usersPerSend) }, (_, offset) => `user-${index * usersPerSend + offset}`);
      const response = await fetch(`${baseUrl}/v1/projects/${project.projectId}/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ targetType: 'userId', targetIds: userIds, title: 'Hello {{ device.tags.name }}', body: 'Bench message {{ data.n }}', data: { n: index } }),
      });
      if (!response.ok) failures++;
      await response.arrayBuffer();
    }
  }
  await Promise.all(Array.from({ length: postConcurrency }, poster));
  const postedAt = Date.now();
  log(`posted ${sends} sends (${failures} failed) in ${postedAt - firstPostAt} ms`);

  let peakSend = 0;
  let peakDeliver = 0;
  await waitUntil(
    `${deviceCount} deliveries`,
    async () => {
      peakSend = Math.max(peakSend, await peakRssMiB(sendWorker.pid));
      peakDeliver = Math.max(peakDeliver, await peakRssMiB(deliverWorker.pid));
      return sandbox.deliveries().length >= deviceCount;
    },
    Number(values['timeout-seconds']) * 1000,
    200,
  );
  const all = sandbox.deliveries();
  const lastReceipt = Date.parse(all[all.length - 1]!.receivedAt);
  const seconds = (lastReceipt - firstPostAt) / 1000;
  const duplicates = all.length - new Set(all.map((delivery) => delivery.token)).size;
  log(
    JSON.stringify({
      devices: deviceCount,
      sends,
      deliveries: all.length,
      duplicates,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(all.length / seconds),
      peakRssMiB: { sendWorker: peakSend, deliverWorker: peakDeliver },
      services: bench.services.path,
    }),
  );
} finally {
  await bench.close();
}
