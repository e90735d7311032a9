import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const processes = 12;
// The race is narrow: several fresh state directories in a row make a run without atomic creation fail reliably.
const rounds = 10;

/**
 * One config load in a process of its own, held until `go` arrives on stdin so that every process reaches the key
 * file at the same moment, as `npm start`'s processes do on a fresh state directory. Answers the key it loaded.
 */
function loadKeyOnCue(stateDir: string) {
  const script = `
    import { loadConfig } from './src/config.ts';
    process.stdin.once('data', () => console.log(loadConfig().credentialsKey.toString('hex')));
    console.log('ready');
  `;
  const { CREDENTIALS_KEY: _, ...env } = process.env;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...env, STATE_DIR: stateDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  const ready = new Promise<void>((done, fail) => {
    child.stdout.on('data', () => stdout.startsWith('ready\n') && done());
    void exited.then((code) => fail(new Error(`exited (${code}) before it was ready:\n${stderr}`)));
  });
  const loadedKey = async () => {
    const code = await exited;
    if (code !== 0) throw new Error(`exited (${code}):\n${stderr}`);
    return stdout.split('\n')[1];
  };
  return { child, ready, loadedKey };
}

async function raceOnFreshStateDir(): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-key-'));
  try {
    const loads = Array.from({ length: processes }, () => loadKeyOnCue(stateDir));
    await Promise.all(loads.map((load) => load.ready));
    for (const load of loads) load.child.stdin.end('go\n');
    const keys = await Promise.all(loads.map((load) => load.loadedKey()));
    const file = join(stateDir, 'credentials.key');
    const stored = (await readFile(file, 'utf8')).trim();
    expect(keys).toEqual(loads.map(() => stored));
    expect(await readdir(stateDir)).toEqual(['credentials.key']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

it('processes started together on a fresh state directory generate one credentials key, private to its owner, and all load it', async () => {
  for (let round = 0; round < rounds; round++) await raceOnFreshStateDir();
}, 120_000);
