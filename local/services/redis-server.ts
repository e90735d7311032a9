import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { findOnPath } from './find-executable.ts';
import { startOnPort } from './free-port.ts';
import { startManagedProcess } from './managed-process.ts';
import { redisAnswersPing } from './redis-ping.ts';
import { runCommand } from './run-command.ts';
import { aptInstall } from './apt-install.ts';
import type { LocalServiceOptions, StartedService } from './started-service.ts';
import { waitUntilReady } from './wait-until-ready.ts';

const READY_TIMEOUT_MS = 15_000;

export async function startLocalRedis(options: LocalServiceOptions, extraArgs: string[] = []): Promise<StartedService> {
  const redisServer = await findOrInstallRedisServer(options.log);
  const version = await readRedisVersion(redisServer);
  return startOnPort(options.port, (port) => startRedisOnPort(redisServer, version, port, options, extraArgs));
}

async function startRedisOnPort(
  redisServer: string,
  version: string,
  port: number,
  options: LocalServiceOptions,
  extraArgs: string[],
): Promise<StartedService> {
  // A persistent instance needs a stable dir so the next start (on another port) finds its data.
  const dataDir = join(options.stateDir, options.persistent ? 'redis' : `redis-${port}`);
  await mkdir(dataDir, { recursive: true });
  const redis = await startManagedProcess({
    name: `redis-server on 127.0.0.1:${port}`,
    command: redisServer,
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dataDir,
      '--save',
      '',
      '--appendonly',
      options.persistent ? 'yes' : 'no',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
      ...extraArgs,
    ],
    removeOnStop: options.persistent ? undefined : dataDir,
  });
  try {
    await waitUntilReady(redis, () => redisAnswersPing('127.0.0.1', port), READY_TIMEOUT_MS);
  } catch (error) {
    await redis.stop();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    description: `local redis-server ${version} on 127.0.0.1:${port}`,
    pids: [redis.pid],
    stop: () => redis.stop(),
  };
}

async function findOrInstallRedisServer(log: (line: string) => void): Promise<string> {
  const found = findOnPath('redis-server');
  if (found !== undefined) return found;

  if (await aptInstall(['redis-server'], (line) => log(`redis: ${line}`))) {
    const installed = findOnPath('redis-server');
    if (installed !== undefined) return installed;
  }
  throw new Error(
    'redis-server was not found on PATH. Install Redis 7 (Debian/Ubuntu: `apt-get install -y redis-server`; ' +
      'macOS: `brew install redis`), or set REDIS_URL to an existing Redis.',
  );
}

async function readRedisVersion(redisServer: string): Promise<string> {
  const result = await runCommand(redisServer, ['--version'], { timeoutMs: 5_000 });
  return /\bv=(\S+)/.exec(result.stdout)?.[1] ?? 'unknown version';
}
