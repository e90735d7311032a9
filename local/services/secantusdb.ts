import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startOnPort } from './free-port.ts';
import { startManagedProcess } from './managed-process.ts';
import { mongoAnswersPing } from './mongo-ping.ts';
import { findOrInstallSecantusDb, type SecantusDbInstall } from './secantusdb-install.ts';
import type { LocalServiceOptions, StartedService } from './started-service.ts';
import { waitUntilReady } from './wait-until-ready.ts';

const READY_TIMEOUT_MS = 30_000;

/** SecantusDB's own entry point with its TTL monitor and its index upkeep mended: see the script. */
const launcherWithFixes = join(import.meta.dirname, 'secantusdb-launcher.py');

export interface SecantusDbOptions extends LocalServiceOptions {
  /** Seconds between the TTL monitor's sweeps; its default, mongod's 60 s, when absent. */
  ttlSweepSeconds?: number;
}

/** SecantusDB, a single-node MongoDB-wire server on WiredTiger (CONTRACTS §13), on loopback. */
export async function startLocalSecantusDb(options: SecantusDbOptions): Promise<StartedService> {
  const install = await findOrInstallSecantusDb(options.log);
  return startOnPort(options.port, (port) => startSecantusDbOnPort(install, port, options));
}

/**
 * The URL carries retryWrites=false: SecantusDB's retryable-write bookkeeping scans every record it keeps on each
 * write, so with the driver's default writes slow down as they accumulate (90 updateOne/s against 1,520/s), and a
 * single node has no failover to retry across anyway.
 */
export function secantusDbUrl(address: string): string {
  return `mongodb://${address}/?retryWrites=false`;
}

async function startSecantusDbOnPort(
  install: SecantusDbInstall,
  port: number,
  options: SecantusDbOptions,
): Promise<StartedService> {
  // A persistent instance needs a stable dir so the next start (on another port) finds its data.
  const dataDir = join(options.stateDir, options.persistent ? 'secantusdb' : `secantusdb-${port}`);
  await mkdir(dataDir, { recursive: true });
  const address = `127.0.0.1:${port}`;
  const server = await startManagedProcess({
    name: `secantusdb on ${address}`,
    command: install.python,
    args: [
      launcherWithFixes,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--storage-path',
      dataDir,
      '--log-level',
      'WARNING',
      // Standalone, not a one-node replica set: the code needs only single-document atomicity, indexes and TTL
      // (CONTRACTS §13), no transactions or change streams, and a replica set also writes every change to its oplog
      // (each update diffed and encoded again), which nothing here reads and every write would pay for.
      '--standalone',
      ...(options.ttlSweepSeconds === undefined ? [] : ['--ttl-sweep-seconds', String(options.ttlSweepSeconds)]),
    ],
    removeOnStop: options.persistent ? undefined : dataDir,
    // Its launcher discovers ./secantusd.toml; a neutral working directory keeps a stray one from changing it.
    cwd: dataDir,
  });
  const url = secantusDbUrl(address);
  try {
    await waitUntilReady(server, () => mongoAnswersPing(url), READY_TIMEOUT_MS);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url,
    description: `local SecantusDB ${install.version} on ${address}`,
    pids: [server.pid],
    stop: () => server.stop(),
  };
}
