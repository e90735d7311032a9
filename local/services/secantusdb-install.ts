import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findOnPath, isExecutableFile } from './find-executable.ts';
import { describeFailure, runCommand } from './run-command.ts';
import { aptInstall } from './apt-install.ts';

/** Pinned: SecantusDB is beta, and every figure in docs/performance.md was measured on this version. */
export const SECANTUSDB_VERSION = '0.7.0b3';
const MIN_PYTHON: [number, number] = [3, 10];
const PIP_TIMEOUT_MS = 10 * 60_000;

export interface SecantusDbInstall {
  /** The virtual environment's python, which runs local/services/secantusdb-launcher.py: see installedAt. */
  python: string;
  /** The package's own launcher script in the virtual environment, there once pip has installed it; never run. */
  installedMarker: string;
  version: string;
}

/**
 * The server runs through the venv's python rather than a script's shebang: pip wrote the shebangs for the directory
 * the venv was built in, which was renamed to its final place afterwards.
 */
function installedAt(venv: string): SecantusDbInstall {
  return {
    python: join(venv, 'bin', 'python'),
    installedMarker: join(venv, 'bin', 'secantusd-py'),
    version: SECANTUSDB_VERSION,
  };
}

function cacheRoot(): string {
  return process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
}

/** One virtual environment per pinned version in the user cache, so every clone on the machine shares it. */
export function secantusDbVenv(): string {
  return join(cacheRoot(), 'pushengine', `secantusdb-${SECANTUSDB_VERSION}`);
}

/**
 * The installed server, or a fresh install into the user cache (python3 -m venv, then pip). The venv is built under a
 * name of its own and renamed into place when complete, so that two first runs at once (npm start beside
 * npm test) or an install cut short never leave a half-built venv where the next run would take it for a good one.
 */
export async function findOrInstallSecantusDb(log: (line: string) => void): Promise<SecantusDbInstall> {
  const venv = secantusDbVenv();
  if (isExecutableFile(installedAt(venv).installedMarker)) return installedAt(venv);

  const python = await findPython();
  const building = `${venv}.partial-${randomUUID()}`;
  log(
    `mongodb: installing SecantusDB ${SECANTUSDB_VERSION} (PyPI secantusdb) into ${venv} with ${python}; once per machine, about half a minute`,
  );
  try {
    await createVenv(python, building, log);
    const pip = join(building, 'bin', 'pip');
    const install = await runCommand(
      pip,
      ['install', '--disable-pip-version-check', '--quiet', `secantusdb==${SECANTUSDB_VERSION}`],
      { timeoutMs: PIP_TIMEOUT_MS },
    );
    if (install.exitCode !== 0 || !isExecutableFile(installedAt(building).installedMarker)) {
      throw new Error(
        `${describeFailure(`pip install secantusdb==${SECANTUSDB_VERSION}`, install)}\nSet MONGODB_URL to an existing MongoDB 7/8 to skip the local server.`,
      );
    }
    await rename(building, venv).catch((error: NodeJS.ErrnoException) => {
      // Another run finished first: its venv is as good as this one.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  log(`mongodb: installed SecantusDB ${SECANTUSDB_VERSION}`);
  return installedAt(venv);
}

async function findPython(): Promise<string> {
  for (const name of ['python3', 'python']) {
    const candidate = findOnPath(name);
    if (candidate === undefined) continue;
    const probe = await runCommand(candidate, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
      timeoutMs: 10_000,
    });
    const [major = 0, minor = 0] = probe.stdout.trim().split('.').map(Number);
    if (major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1])) return candidate;
  }
  throw new Error(
    `SecantusDB needs Python ${MIN_PYTHON.join('.')} or newer as python3, and none was found on PATH. ` +
      'Install it (Debian/Ubuntu: `apt-get install -y python3 python3-venv`), or set MONGODB_URL to an existing MongoDB 7/8.',
  );
}

/** Debian's python3 ships without the venv module until python3-venv is installed; as root that is done here. */
async function createVenv(python: string, venv: string, log: (line: string) => void): Promise<void> {
  const create = () => runCommand(python, ['-m', 'venv', '--clear', venv], { timeoutMs: 120_000 });
  let result = await create();
  if (result.exitCode === 0) return;
  if (
    await aptInstall(['python3-venv'], (line) => log(`mongodb: python3 cannot create a virtual environment; ${line}`))
  ) {
    result = await create();
    if (result.exitCode === 0) return;
  }
  throw new Error(
    `${describeFailure(`${python} -m venv ${venv}`, result)}\n` +
      'Install the venv module (Debian/Ubuntu: `apt-get install -y python3-venv`), or set MONGODB_URL to an existing MongoDB 7/8.',
  );
}
