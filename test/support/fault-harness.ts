import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { platforms } from '../../src/schemas/platforms.ts';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.ts';
import type { TokenRuleOptions } from '../../sandbox/token-rules.ts';
import { startLocalRedis } from '../../local/services/redis-server.ts';
import { startLocalSecantusDb } from '../../local/services/secantusdb.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import type { LocalServiceOptions, StartedService } from '../../local/services/started-service.ts';
import { startIngress, type TestIngress } from './ingress.ts';
import { testConfig } from './test-config.ts';
import { processEnv, startWorkerProcess, type NodeProcess } from './child-processes.ts';
import { readNotification, sendNotification } from './delivery-harness.ts';
import { eventually } from './eventually.ts';
import { describeSendState } from './send-state.ts';
import { useResource } from './use-resource.ts';

/** A Redis or MongoDB-wire server of the test's own, with its data on disk so that it can be stopped and started again. */
export interface RestartableService {
  url: string;
  stop(): Promise<void>;
  /** SIGKILL, as in a crash: gone at once (a SIGTERM shutdown takes time, during which the server still answers). */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
}

export async function restartable(
  start: (options: LocalServiceOptions) => Promise<StartedService>,
  stateDir: string,
): Promise<RestartableService> {
  const log = () => {};
  let service = await start({ stateDir, log, persistent: true });
  const port = Number(new URL(service.url).port);
  return {
    url: service.url,
    stop: () => service.stop(),
    async kill() {
      for (const pid of service.pids) process.kill(pid, 'SIGKILL');
      await service.stop();
    },
    async start() {
      service = await start({ stateDir, log, persistent: true, port });
    },
  };
}

export interface FaultHarnessOptions {
  sandbox?: TokenRuleOptions;
  /** Its own Redis with an append-only file, instead of the run's shared one. */
  ownRedis?: boolean;
  /** Its own MongoDB-wire server, instead of the run's shared MongoDB-wire server. */
  ownMongo?: boolean;
  /** Extra environment of every worker process (lock duration, stalled-job interval). */
  workerEnv?: Record<string, string>;
}

export interface FaultHarness {
  config: Config;
  sandbox: Sandbox;
  ingress: TestIngress;
  redis: RestartableService | null;
  mongo: RestartableService | null;
  startWorker(queue: 'send' | 'deliver' | 'journey-steps'): Promise<NodeProcess>;
  /** The end of what each worker process started so far has printed, for a failure message. */
  workerOutput(): string;
  close(): Promise<void>;
}

/**
 * A deployment in miniature for fault tests: the sandbox gateways, an in-process ingress, and the send and deliver
 * workers as processes of their own (so that they can be killed), optionally on a Redis and a MongoDB-wire server
 * that belong to the test alone (so that they can be stopped without disturbing other test files).
 */
async function startFaultHarness(options: FaultHarnessOptions): Promise<FaultHarness> {
  const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-faults-'));
  const redis = options.ownRedis ? await restartable(startLocalRedis, stateDir) : null;
  const mongo = options.ownMongo ? await restartable(startLocalSecantusDb, stateDir) : null;
  const sandbox = await startSandbox({ port: 0, ...options.sandbox });
  const base = testConfig({ sandboxPort: sandbox.port });
  const config = {
    ...base,
    ...(redis && { redisUrl: redis.url }),
    ...(mongo && { mongoUrl: withDatabase(mongo.url, 'faults') }),
  };
  const ingress = await startIngress(config);
  const workers: NodeProcess[] = [];
  return {
    config,
    sandbox,
    ingress,
    redis,
    mongo,
    async startWorker(queue) {
      const worker = await startWorkerProcess(queue, processEnv(config, options.workerEnv));
      workers.push(worker);
      return worker;
    },
    workerOutput: () =>
      workers.map((worker) => `--- worker ${worker.pid}, last lines:\n${worker.output().slice(-4000)}`).join('\n'),
    async close() {
      await Promise.all(workers.map((worker) => worker.stop(5_000)));
      await ingress.close();
      await sandbox.close();
      await redis?.stop();
      await mongo?.stop();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** The fault harness, started before the file's tests and closed after them; filled in before the tests run. */
export function useFaultHarness(options: FaultHarnessOptions = {}): FaultHarness {
  return useResource(() => startFaultHarness(options));
}

/** A team project with `count` subscribed devices over the three platforms (bulk-inserted) and a segment of all of them. */
export async function seedSegmentAudience(
  harness: FaultHarness,
  count: number,
): Promise<{ project: CreatedProject; tokens: string[] }> {
  const project = await harness.ingress.createProject('team');
  const now = new Date();
  const tokens = Array.from({ length: count }, (_, index) => `${project.projectId}-${index}`);
  const documents = tokens.map((token, index) => ({
    _id: deviceKey(project.projectId, `d${index}`),
    projectId: project.projectId,
    deviceId: `d${index}`,
    platform: platforms[index % platforms.length]!,
    pushToken: token,
    userId: `u${index}`,
    tags: { name: `Device ${index}` },
    isSubscribed: true,
    createdAt: now,
    updatedAt: now,
  }));
  const { Device, Segment } = harness.ingress.context.models;
  for (let start = 0; start < documents.length; start += 5000)
    await Device.insertMany(documents.slice(start, start + 5000), { ordered: false, lean: true });
  await Segment.create({
    _id: 'everyone',
    projectId: project.projectId,
    name: 'Everyone',
    match: 'all',
    conditions: [],
  });
  return { project, tokens };
}

function sendToSegment(harness: FaultHarness, project: CreatedProject): Promise<string> {
  return sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: ['everyone'],
    title: 'Hello {{ device.tags.name }}',
    body: 'Fault test',
  });
}

export interface SegmentSend {
  project: CreatedProject;
  tokens: string[];
  /** The notification's id. */
  id: string;
  /** The one deliver worker process, for a test that kills it. */
  deliverWorker: NodeProcess;
}

/** A send and a deliver worker started, `count` devices seeded and a notification to all of them under way. */
export async function startSegmentSend(harness: FaultHarness, count: number): Promise<SegmentSend> {
  await harness.startWorker('send');
  const deliverWorker = await harness.startWorker('deliver');
  const { project, tokens } = await seedSegmentAudience(harness, count);
  const id = await sendToSegment(harness, project);
  return { project, tokens, id, deliverWorker };
}

/** Resolves once the sandbox has accepted at least `count` pushes: the send is then well under way. */
export function deliveriesReached(harness: FaultHarness, count: number, timeoutMs = 60_000): Promise<void> {
  return eventually(
    () => expect(harness.sandbox.deliveries().length).toBeGreaterThanOrEqual(count),
    timeoutMs,
    10,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${harness.workerOutput()}`);
  });
}

export interface DeliveryExpectation {
  /** How many devices may get a second push (0: exactly once). */
  maxDoubled?: number;
  timeoutMs?: number;
}

/**
 * Every device got a push, at most `maxDoubled` got two, and the notification's stats and history count each device
 * once. Answers the tokens that got more than one push.
 */
export async function expectEveryDeviceDelivered(
  harness: FaultHarness,
  project: CreatedProject,
  id: string,
  tokens: string[],
  options: DeliveryExpectation = {},
): Promise<string[]> {
  const { maxDoubled = 0, timeoutMs = 120_000 } = options;
  const notification = await eventually(
    async () => {
      const read = await readNotification(harness.ingress, project, id);
      expect(read.status).toBe('completed');
      return read;
    },
    timeoutMs,
    200,
  ).catch(async (error: Error) => {
    const state = await describeSendState(harness.ingress.context.queues, id);
    throw new Error(`${error.message}\n${state}\n${harness.workerOutput()}`);
  });
  // Only this send's devices: a test may send to other projects beside it.
  const perToken = new Map(tokens.map((token) => [token, 0]));
  for (const { token } of harness.sandbox.deliveries()) {
    const count = perToken.get(token);
    if (count !== undefined) perToken.set(token, count + 1);
  }
  const missing = tokens.filter((token) => perToken.get(token) === 0);
  const doubled = [...perToken].filter(([, count]) => count > 1).map(([token]) => token);
  // The gateway's answers to a missing device and the notification's stats tell a device the gateway kept refusing
  // from one the pipeline lost.
  const attemptsOfMissing = missing
    .slice(0, 3)
    .map((token) => harness.sandbox.attempts(token).map((attempt) => attempt.status));
  expect({
    missing: missing.length,
    firstMissing: missing.slice(0, 3),
    attemptsOfMissing,
    stats: notification.stats,
  }).toEqual({ missing: 0, firstMissing: [], attemptsOfMissing: [], stats: expect.anything() });
  expect(doubled.length, `doubled, e.g. ${doubled.slice(0, 3).join(', ')}`).toBeLessThanOrEqual(maxDoubled);
  expect(notification.stats).toEqual({
    targeted: tokens.length,
    sent: tokens.length,
    failed: 0,
    unsubscribed: 0,
    capped: 0,
    clicked: 0,
  });
  expect(await harness.ingress.context.models.History.countDocuments({ notificationId: id })).toBe(tokens.length);
  return doubled;
}

/** Every device got exactly one push, and the notification says so. */
export async function expectDeliveredExactlyOnce(
  harness: FaultHarness,
  project: CreatedProject,
  id: string,
  tokens: string[],
  timeoutMs = 120_000,
): Promise<void> {
  await expectEveryDeviceDelivered(harness, project, id, tokens, { timeoutMs });
}
