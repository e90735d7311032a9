import { randomBytes } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findOnPath, isExecutableFile } from './find-executable.ts';
import { describeFailure, runCommand } from './run-command.ts';

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
const BUILD_TIMEOUT_MS = 15 * 60_000;

export interface FerretDbBinary {
  path: string;
  version: string;
}

/** Lookup order: FERRETDB_BIN, PATH, $(go env GOPATH)/bin, our cache; builds into the cache when none is found. */
export async function findOrBuildFerretDb(log: (line: string) => void): Promise<FerretDbBinary> {
  const explicit = process.env.FERRETDB_BIN;
  if (explicit !== undefined && explicit !== '') {
    if (!isExecutableFile(explicit)) throw new Error(`FERRETDB_BIN is set to ${explicit}, which is not an executable file`);
    return { path: explicit, version: await readFerretDbVersion(explicit) };
  }

  const go = findGo();
  const candidates = [findOnPath('ferretdb'), go && (await goPathBinary(go)), cachedBinaryPath()];
  for (const candidate of candidates) {
    if (candidate === undefined || !isExecutableFile(candidate)) continue;
    const version = await readFerretDbVersion(candidate);
    // FerretDB 2.x dropped the SQLite handler, so only a 1.x binary can run without PostgreSQL.
    if (version.startsWith('v1.')) return { path: candidate, version };
    log(`mongodb: ignoring ${candidate} (FerretDB ${version}); FerretDB 1.x with the SQLite handler is needed`);
  }

  if (go === undefined) {
    throw new Error(
      `FerretDB ${FERRETDB_VERSION} was not found and Go is not installed to build it. ` +
        'Install Go (https://go.dev/dl/), or set FERRETDB_BIN to a FerretDB 1.x binary, or set MONGODB_URL to an existing MongoDB.',
    );
  }
  const built = cachedBinaryPath();
  log(`mongodb: FerretDB not found; building FerretDB ${FERRETDB_VERSION} from source with Go into ${built} (takes about a minute)`);
  await buildFerretDb(go, built);
  log(`mongodb: built ${built}`);
  return { path: built, version: await readFerretDbVersion(built) };
}

function cachedBinaryPath(): string {
  return join(homedir(), '.cache', 'pushengine', 'bin', `ferretdb-${FERRETDB_VERSION}`);
}

function findGo(): string | undefined {
  return findOnPath('go') ?? (isExecutableFile('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

async function goPathBinary(go: string): Promise<string | undefined> {
  const result = await runCommand(go, ['env', 'GOPATH'], { timeoutMs: 10_000 });
  const firstGoPath = result.stdout.trim().split(delimiter)[0];
  return result.exitCode === 0 && firstGoPath ? join(firstGoPath, 'bin', 'ferretdb') : undefined;
}

async function readFerretDbVersion(binary: string): Promise<string> {
  const result = await runCommand(binary, ['--version'], { timeoutMs: 10_000 });
  return /^version:\s*(\S+)/m.exec(result.stdout)?.[1] ?? 'unknown version';
}

/**
 * `go install ...@v1.24.2` fails here (the proxy refuses the @v/list lookup) and the module zip
 * ships an empty build/version/version.txt that makes the binary panic at start, so: download the
 * module, copy it somewhere writable, fill in version.txt, build. The binary appears atomically.
 */
async function buildFerretDb(go: string, destination: string): Promise<void> {
  const env = { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-modcacherw'].filter(Boolean).join(' ') };
  const workDir = await mkdtemp(join(tmpdir(), 'pushengine-ferretdb-build-'));
  const partialBinary = `${destination}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const moduleSpec = `${FERRETDB_MODULE}@${FERRETDB_VERSION}`;
    const download = await runCommand(go, ['mod', 'download', '-json', moduleSpec], { cwd: workDir, env, timeoutMs: DOWNLOAD_TIMEOUT_MS });
    const moduleDir = parseDownloadedDir(download.stdout);
    if (download.exitCode !== 0 || moduleDir === undefined) {
      throw new Error(`Building FerretDB failed: ${describeFailure(`go mod download ${moduleSpec}`, download)}`);
    }

    const sourceDir = join(workDir, 'src');
    await cp(moduleDir, sourceDir, { recursive: true });
    await makeWritable(sourceDir);
    await writeFile(join(sourceDir, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);

    await mkdir(join(destination, '..'), { recursive: true });
    const build = await runCommand(go, ['build', '-trimpath', '-o', partialBinary, './cmd/ferretdb'], {
      cwd: sourceDir,
      env,
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    if (build.exitCode !== 0) throw new Error(`Building FerretDB failed: ${describeFailure('go build ./cmd/ferretdb', build)}`);
    await rename(partialBinary, destination);
  } finally {
    await rm(workDir, { recursive: true, force: true });
    await rm(partialBinary, { force: true });
  }
}

function parseDownloadedDir(stdout: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(stdout);
    if (typeof parsed === 'object' && parsed !== null && 'Dir' in parsed && typeof parsed.Dir === 'string') return parsed.Dir;
  } catch {}
  return undefined;
}

/** The module cache is read-only (unless it was filled with -modcacherw) and cp keeps those modes. */
async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const mode = (await stat(path)).mode & 0o777;
    await chmod(path, mode | 0o200);
  }
}
