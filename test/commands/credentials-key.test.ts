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
 * A process that loads the config afresh for each state directory given on stdin: it imports a new instance of the
 * config module for the directory and says `ready <round>`, then at `go` loads the config and says
 * `key <round> <key>`, so that every process reaches the key file at the same moment, as `npm start`'s processes do on
 * a fresh state directory. One process serves every round: the race is between processes, not process starts.
 */
function keyLoader() {
  const script = `
    import { createInterface } from 'node:readline';
    let round = 0;
    let loadConfig;
    for await (const line of createInterface({ input: process.stdin })) {
      if (line === 'go') {
        console.log(\`key \${round} \${loadConfig().credentialsKey.toString('hex')}\`);
        continue;
      }
      round += 1;
      process.env.STATE_DIR = line;
      ({ loadConfig } = await import(\`./src/config.ts?round=\${round}\`));
      console.log(\`ready \${round}\`);
    }
  `;
  const { CREDENTIALS_KEY: _, ...env } = process.env;
  const load = startNodeProcess(['--input-type=module', '-e', script], env, { stdin: 'pipe' });
  const said = (pattern: RegExp, what: string) =>
    eventually(() => {
      stopWaitingIfExited(load, what);
      const match = load.output().match(pattern);
      expect(match).not.toBeNull();
      return match!;
    });
  return {
    async ready(stateDir: string, round: number) {
      load.child.stdin!.write(`${stateDir}\n`);
      await said(new RegExp(`^ready ${round}$`, 'm'), `was ready for round ${round}`);
    },
    go: () => load.child.stdin!.write('go\n'),
    loadedKey: async (round: number) =>
      (await said(new RegExp(`^key ${round} ([0-9a-f]{64})$`, 'm'), `loaded round ${round}'s key`))[1],
    async end() {
      load.child.stdin!.end();
      const { code } = await load.exited;
      expect(code, load.output()).toBe(0);
    },
  };
}

async function raceOnFreshStateDir(loads: ReturnType<typeof keyLoader>[], round: number): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-key-'));
  try {
    await Promise.all(loads.map((load) => load.ready(stateDir, round)));
    for (const load of loads) load.go();
    const keys = await Promise.all(loads.map((load) => load.loadedKey(round)));
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
  const loads = Array.from({ length: processes }, () => keyLoader());
  try {
    for (let round = 1; round <= rounds; round++) await raceOnFreshStateDir(loads, round);
  } finally {
    await Promise.all(loads.map((load) => load.end()));
  }
}, 120_000);
