import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { findOrBuildFerretDb, type FerretDbBinary } from './ferretdb-binary.ts';
import { startOnPort } from './free-port.ts';
import { startManagedProcess } from './managed-process.ts';
import { mongoAnswersPing } from './mongo-ping.ts';
import type { LocalServiceOptions, StartedService } from './started-service.ts';
import { waitUntilReady } from './wait-until-ready.ts';

const READY_TIMEOUT_MS = 20_000;

/** FerretDB 1.x with its SQLite handler: a MongoDB-wire server that needs neither MongoDB nor PostgreSQL. */
export async function startLocalFerretDb(options: LocalServiceOptions): Promise<StartedService> {
  const binary = await findOrBuildFerretDb(options.log);
  return startOnPort(options.port, (port) => startFerretDbOnPort(binary, port, options));
}

async function startFerretDbOnPort(binary: FerretDbBinary, port: number, options: LocalServiceOptions): Promise<StartedService> {
  // A persistent instance needs a stable dir so the next start (on another port) finds its data.
  const dataDir = join(options.stateDir, options.persistent ? 'ferretdb' : `ferretdb-${port}`);
  await mkdir(dataDir, { recursive: true });
  const address = `127.0.0.1:${port}`;
  const ferretdb = await startManagedProcess({
    name: `ferretdb on ${address}`,
    command: binary.path,
    args: [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
      `--state-dir=${dataDir}`,
      `--listen-addr=${address}`,
      // '-' skips the debug HTTP listener (fixed port 8088 by default), so several instances can run at once.
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
    ],
    removeOnStop: options.persistent ? undefined : dataDir,
  });
  const url = `mongodb://${address}`;
  try {
    await waitUntilReady(ferretdb, () => mongoAnswersPing(url), READY_TIMEOUT_MS);
  } catch (error) {
    await ferretdb.stop();
    throw error;
  }
  return {
    url,
    description: `local FerretDB ${binary.version} (SQLite) on ${address}`,
    pids: [ferretdb.pid],
    stop: () => ferretdb.stop(),
  };
}
