import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { stateDir } from '../../src/config.ts';
import { provideServices, type ProvidedServices } from '../services/provide-services.ts';
import { findFreePort } from '../services/free-port.ts';

const root = resolve(import.meta.dirname, '../..');

export interface BenchEnvironment {
  services: ProvidedServices;
  env: NodeJS.ProcessEnv;
  /** Starts `node <entry>` (relative to the repo) with the bench environment; killed by close(). */
  spawnNode(entry: string, extraEnv?: NodeJS.ProcessEnv): ChildProcess;
  close(): Promise<void>;
}

/** Fresh services and a fresh database for one benchmark run, set up the way the tests do it. */
export async function openBenchEnvironment(name: string): Promise<BenchEnvironment> {
  const services = await provideServices({ stateDir: resolve(stateDir, 'bench'), log: (line) => process.stderr.write(`[services] ${line}\n`) });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: services.redisUrl,
    MONGODB_URL: `${services.mongoUrl}/bench_${name}_${Date.now()}`,
    QUEUE_PREFIX: `bench${Date.now()}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: String(await findFreePort()),
    HOST: '127.0.0.1',
  };
  const children: ChildProcess[] = [];
  return {
    services,
    env,
    spawnNode(entry, extraEnv = {}) {
      const child = spawn(process.execPath, [resolve(root, entry)], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
      children.push(child);
      return child;
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        ),
      );
      await services.stop();
    },
  };
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
