import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Connection } from 'mongoose';
import { stateDir } from '../../src/config.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import { createModels, type Models } from '../../src/models/index.ts';
import { provideServices, type ProvidedServices } from '../../local/services/provide-services.ts';
import { findFreePort } from '../../local/services/free-port.ts';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.ts';
import { waitUntil } from './measure.ts';
import { readProcfile } from '../../local/start/procfile.ts';
import { Queue } from 'bullmq';
import { createBlockingRedis, type RedisClient } from '../../src/infra/redis.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import type { QueueName } from '../../src/infra/queue-names.ts';

const root = resolve(import.meta.dirname, '../..');

export interface BenchEnvironment {
  services: ProvidedServices;
  sandbox: Sandbox | null;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  models: Models;
  /** Starts a process of the Procfile by name, with the command production runs; stopped by close(). */
  spawnProcess(name: string, extraEnv?: NodeJS.ProcessEnv): ChildProcess;
  /** The named queue of this run, opened once and closed by close(). */
  queue(name: QueueName): Queue;
  /** Starts the ingress and waits until it is ready. */
  startIngress(extraEnv?: NodeJS.ProcessEnv): Promise<ChildProcess>;
  close(): Promise<void>;
}

/** Fresh services, database and key prefix for one benchmark run, set up the way the tests do it. */
export async function openBenchEnvironment(
  name: string,
  options: { sandbox?: boolean } = {},
): Promise<BenchEnvironment> {
  const services = await provideServices({
    stateDir: resolve(stateDir, 'bench'),
    log: (line) => process.stderr.write(`[services] ${line}\n`),
  });
  const sandbox = options.sandbox ? await startSandbox({ port: 0 }) : null;
  const suffix = randomBytes(3).toString('hex');
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: services.redisUrl,
    MONGODB_URL: withDatabase(services.mongoUrl, `bench_${name}_${suffix}`),
    QUEUE_PREFIX: `bench${suffix}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUSH_GATEWAY: 'sandbox',
    SANDBOX_PORT: String(sandbox?.port ?? 0),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
  };
  const mongo: Connection = await connectMongo(env.MONGODB_URL!);
  const children: ChildProcess[] = [];
  const baseUrl = `http://127.0.0.1:${port}`;
  const track = (child: ChildProcess) => {
    children.push(child);
    return child;
  };
  const procfile = readProcfile(resolve(root, 'Procfile'));
  const spawnProcess = (name: string, extraEnv: NodeJS.ProcessEnv = {}) => {
    const entry = procfile.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`the Procfile has no process "${name}"`);
    // exec: the shell becomes the process, so its pid is the one measured and signalled. Its logs go to stderr (fd 2):
    // a benchmark's stdout is its result, one JSON line with --json.
    return track(
      spawn(`exec ${entry.command}`, {
        shell: true,
        cwd: root,
        env: { ...env, ...extraEnv },
        stdio: ['ignore', 2, 'inherit'],
      }),
    );
  };
  // Opened by the first queue asked for: most benchmarks read none.
  let redis: RedisClient | undefined;
  const queues = new Map<QueueName, Queue>();
  const queue = (name: QueueName) => {
    redis ??= createBlockingRedis(services.redisUrl);
    const opened =
      queues.get(name) ??
      new Queue(name, { connection: redis, prefix: redisKeys.queuePrefix(env.QUEUE_PREFIX!, name) });
    queues.set(name, opened);
    return opened;
  };
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await Promise.all([...queues.values()].map((opened) => opened.close()));
      redis?.disconnect();
      await Promise.all(children.map(stopChild));
      await mongo.close();
      await sandbox?.close();
      await services.stop();
    })());
  // Node's default for these signals is to die at once, which would leave the ingress, the workers and the servers running.
  for (const [signal, exitCode] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      process.stderr.write(`[bench] ${signal}: stopping the processes and servers this run started\n`);
      void close().finally(() => process.exit(exitCode));
    });
  }
  return {
    services,
    sandbox,
    env,
    baseUrl,
    models: createModels(mongo),
    spawnProcess,
    queue,
    async startIngress(extraEnv) {
      const ingress = spawnProcess('web', extraEnv);
      await waitUntil(
        'the ingress to be ready',
        () =>
          fetch(`${baseUrl}/readyz`).then(
            (response) => response.ok,
            () => false,
          ),
        30_000,
      );
      return ingress;
    },
    close,
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/**
 * The server API of one project, as its backend calls it: `request` answers the body's `data` and throws on anything
 * but a 2xx, naming the request and the answer.
 */
export function projectApi(baseUrl: string, project: { projectId: string; apiKey: string }) {
  return async <T = { id: string }>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const response = await fetch(`${baseUrl}/v1/projects/${project.projectId}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${project.apiKey}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const parsed = (await response.json()) as { data?: T; error?: unknown };
    if (!response.ok || parsed.data === undefined)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
    return parsed.data;
  };
}
