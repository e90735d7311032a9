import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const processes = 12;
// The race is narrow: several fresh state directories in a row make a run without atomic creation fail reliably.
const rounds = 10;

/**
 * One config load in a process of its own, held until `go` arrives on stdin so that every process reaches the key
 * file at the same moment, as `npm start`'s processes do on a fresh state directory.
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
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<void>((done) => child.stdout.on('data', () => output.includes('ready') && done()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  return { child, ready, exited, output: () => output };
}

async function raceOnFreshStateDir(): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-key-'));
  try {
    const loads = Array.from({ length: processes }, () => loadKeyOnCue(stateDir));
    await Promise.all(loads.map((load) => load.ready));
    for (const load of loads) load.child.stdin.end('go\n');
    const codes = await Promise.all(loads.map((load) => load.exited));
    expect(codes, loads.map((load) => load.output()).join('\n')).toEqual(loads.map(() => 0));
    const stored = (await readFile(join(stateDir, 'credentials.key'), 'utf8')).trim();
    for (const load of loads) expect(load.output().split('\n')[1]).toBe(stored);
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

it('processes started together on a fresh state directory generate one credentials key and all load it', async () => {
  for (let round = 0; round < rounds; round++) await raceOnFreshStateDir();
}, 120_000);
