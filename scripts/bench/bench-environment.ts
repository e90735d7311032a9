import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Connection } from 'mongoose';
import { stateDir } from '../../src/config.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { createModels, type Models } from '../../src/models/index.ts';
import { provideServices, type ProvidedServices } from '../services/provide-services.ts';
import { findFreePort } from '../services/free-port.ts';
import { startSandbox, type Sandbox } from '../sandbox/start-sandbox.ts';
import { waitUntil } from './measure.ts';

const root = resolve(import.meta.dirname, '../..');

export interface BenchEnvironment {
  services: ProvidedServices;
  sandbox: Sandbox | null;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  models: Models;
  /** Starts `node <entry>` (relative to the repo) with the bench environment; stopped by close(). */
  spawnNode(entry: string, extraEnv?: NodeJS.ProcessEnv): ChildProcess;
  /** Starts the ingress and waits until it is ready. */
  startIngress(): Promise<ChildProcess>;
  close(): Promise<void>;
}

/** Fresh services, database and key prefix for one benchmark run, set up the way the tests do it. */
export async function openBenchEnvironment(name: string, options: { sandbox?: boolean } = {}): Promise<BenchEnvironment> {
  const services = await provideServices({ stateDir: resolve(stateDir, 'bench'), log: (line) => process.stderr.write(`[services] ${line}\n`) });
  const sandbox = options.sandbox ? await startSandbox({ port: 0 }) : null;
  const suffix = randomBytes(3).toString('hex');
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: services.redisUrl,
    MONGODB_URL: `${services.mongoUrl}/bench_${name}_${suffix}`,
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
  const spawnNode = (entry: string, extraEnv: NodeJS.ProcessEnv = {}) => {
    const child = spawn(process.execPath, [resolve(root, entry)], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(child);
    return child;
  };
  return {
    services,
    sandbox,
    env,
    baseUrl,
    models: createModels(mongo),
    spawnNode,
    async startIngress() {
      const ingress = spawnNode('src/server.ts');
      await waitUntil('the ingress to be ready', () => fetch(`${baseUrl}/readyz`).then((response) => response.ok, () => false), 30_000);
      return ingress;
    },
    async close() {
      await Promise.all(children.map(stopChild));
      await mongo.close();
      await sandbox?.close();
      await services.stop();
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}
