/**
 * npm run bench:send -- --devices 10000
 * Local Redis and MongoDB-wire server, the sandbox gateways, an ingress and one send and one deliver worker process.
 * Registers N devices (one per user, bulk-inserted), sends to them by userId in chunks of 100 users on a team project,
 * and reports deliveries per second from the first POST to the last sandbox receipt, and the workers' peak RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { provideServices } from '../services/provide-services.ts';
import { findFreePort } from '../services/free-port.ts';
import { startSandbox } from '../sandbox/start-sandbox.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { createModels } from '../../src/models/index.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { platforms } from '../../src/models/device.ts';
import { deviceKey } from '../../src/models/device.ts';

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
const root = resolve(import.meta.dirname, '../..');
const node = process.execPath;

const log = (line: string) => process.stdout.write(`${line}\n`);

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

function startProcess(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(node, [resolve(root, script)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) log(`${name} exited with ${code}`);
  });
  return child;
}

/** VmHWM: the most resident memory the process ever had (Linux). */
async function peakRssMiB(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

const services = await provideServices({ stateDir: resolve(root, '.state/bench'), log: (line) => log(`[services] ${line}`) });
const sandbox = await startSandbox({ port: 0 });
const port = await findFreePort();
const mongoUrl = `${services.mongoUrl}/bench_${randomBytes(3).toString('hex')}`;
const env = {
  ...process.env,
  REDIS_URL: services.redisUrl,
  MONGODB_URL: mongoUrl,
  PUSH_GATEWAY: 'sandbox',
  SANDBOX_PORT: String(sandbox.port),
  PORT: String(port),
  HOST: '127.0.0.1',
  QUEUE_PREFIX: `bench${randomBytes(3).toString('hex')}`,
  CREDENTIALS_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
};
const processes: ChildProcess[] = [];
const mongo = await connectMongo(mongoUrl);
try {
  const models = createModels(mongo);
  const ingress = startProcess('ingress', 'src/server.ts', env);
  processes.push(ingress);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor('the ingress', () => fetch(`${baseUrl}/healthz`).then((response) => response.ok, () => false), 30_000);
  const sendWorker = startProcess('worker-send', 'workers/send.ts', env);
  const deliverWorker = startProcess('worker-deliver', 'workers/deliver.ts', env);
  processes.push(sendWorker, deliverWorker);

  const project = await createProject(models, { name: 'bench', plan: 'team' });
  const registerStart = Date.now();
  const insertChunk = 5000;
  for (let start = 0; start < deviceCount; start += insertChunk) {
    const now = new Date();
    const documents = Array.from({ length: Math.min(insertChunk, deviceCount - start) }, (_, offset) => {
      const index = start + offset;
      return {
        _id: deviceKey(project.projectId, `device-${index}`),
        projectId: project.projectId,
        deviceId: `device-${index}`,
        platform: platforms[index % platforms.length]!,
        pushToken: `bench-${index}`,
        userId: `user-${index}`,
        tags: { name: `User ${index}` },
        isSubscribed: true,
        unsubscribedAt: null,
        unsubscribeReason: null,
        rejectedPushToken: null,
        createdAt: now,
        updatedAt: now,
      };
    });
    await models.Device.insertMany(documents, { ordered: false, lean: true });
  }
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
  await waitFor(
    `${deviceCount} deliveries`,
    async () => {
      peakSend = Math.max(peakSend, (await peakRssMiB(sendWorker.pid)) ?? 0);
      peakDeliver = Math.max(peakDeliver, (await peakRssMiB(deliverWorker.pid)) ?? 0);
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
      services: services.path,
    }),
  );
} finally {
  await Promise.all(processes.map(stopProcess));
  await mongo.close();
  await sandbox.close();
  await services.stop();
}
