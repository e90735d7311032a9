import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startNodeProcess, stopWaitingIfExited } from '../support/child-processes.ts';
import { eventually } from '../support/eventually.ts';

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
  const load = startNodeProcess(
    ['--input-type=module', '-e', script],
    { ...env, STATE_DIR: stateDir },
    { stdin: 'pipe' },
  );
  const ready = eventually(() => {
    stopWaitingIfExited(load, 'was ready');
    expect(load.output()).toMatch(/^ready$/m);
  });
  const loadedKey = async () => {
    const { code } = await load.exited;
    if (code !== 0) throw new Error(`exited (${code}):\n${load.output()}`);
    return load.output().match(/^[0-9a-f]{64}$/m)?.[0];
  };
  return { child: load.child, ready, loadedKey };
}

async function raceOnFreshStateDir(): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-key-'));
  try {
    const loads = Array.from({ length: processes }, () => loadKeyOnCue(stateDir));
    await Promise.all(loads.map((load) => load.ready));
    for (const load of loads) load.child.stdin!.end('go\n');
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
