import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import { eventually, WaitingCannotHelp } from './eventually.ts';

const root = resolve(import.meta.dirname, '../..');

/** The environment a deployed process would get for this test's configuration (CONTRACTS §11). */
export function processEnv(config: Config, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    REDIS_URL: config.redisUrl,
    MONGODB_URL: config.mongoUrl,
    QUEUE_PREFIX: config.queuePrefix,
    PUSH_GATEWAY: config.pushGateway,
    SANDBOX_PORT: String(config.sandboxPort),
    CREDENTIALS_KEY: config.credentialsKey.toString('hex'),
    LOG_LEVEL: 'warn',
    ...(process.env.NODE_COMPILE_CACHE !== undefined && { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE }),
    ...(config.adminToken !== undefined && { ADMIN_TOKEN: config.adminToken }),
    ...extra,
  };
}

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it has not exited within the time given. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * `node <script>` from the repository root, as the Procfile runs it, or node with the arguments given; its stdin is
 * open only when asked for.
 */
export function startNodeProcess(
  script: string | string[],
  env: NodeJS.ProcessEnv,
  { stdin = 'ignore', ownGroup = false }: { stdin?: 'ignore' | 'pipe'; ownGroup?: boolean } = {},
): NodeProcess {
  const args = typeof script === 'string' ? [script] : script;
  // In a process group of its own, as a shell starts a job, so that a test can signal the group as Ctrl-C does.
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: [stdin, 'pipe', 'pipe'], detached: ownGroup });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return {
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    async stop(timeoutMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}

/** For a check polled while waiting on the process: once it has exited, waiting longer cannot help. */
export function stopWaitingIfExited(waitedOn: NodeProcess, before: string): void {
  const { exitCode } = waitedOn.child;
  if (exitCode !== null) throw new WaitingCannotHelp(`exited (${exitCode}) before it ${before}:\n${waitedOn.output()}`);
}

/** A worker process is ready once it has said so: its BullMQ worker is then taking jobs. */
export async function startWorkerProcess(queue: string, env: NodeJS.ProcessEnv): Promise<NodeProcess> {
  const worker = startNodeProcess(`workers/${queue}.ts`, { ...env, LOG_LEVEL: 'info' });
  await eventually(
    () => {
      stopWaitingIfExited(worker, 'started');
      expect(worker.output()).toContain('"msg":"worker started"');
    },
    30_000,
    50,
  );
  return worker;
}
