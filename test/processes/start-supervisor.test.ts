import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { superviseProcesses } from '../../local/start/supervise.ts';
import { waitFor } from '../support/eventually.ts';

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let started: number[] = [];
afterEach(() => {
  for (const pid of started) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  started = [];
});

describe('npm start', () => {
  it('stops the Procfile processes themselves on shutdown, not only the shells that started them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'supervise-'));
    try {
      const child = join(dir, 'child.cjs');
      await writeFile(
        child,
        "require('node:fs').writeFileSync(process.argv[2], String(process.pid)); setInterval(() => {}, 1000);",
      );
      const pidFiles = ['web', 'worker'].map((name) => join(dir, `${name}.pid`));
      const supervisor = superviseProcesses(
        pidFiles.map((pidFile, index) => ({
          name: `entry-${index}`,
          command: `node --max-old-space-size=64 ${child} ${pidFile}`,
        })),
        process.env,
        dir,
        (line) => line,
      );
      started = await Promise.all(
        pidFiles.map((pidFile) =>
          waitFor(
            () => readFile(pidFile, 'utf8').then(Number, () => 0),
            (pid) => pid > 0,
          ),
        ),
      );
      await supervisor.stopAll();
      expect(started.filter(isRunning)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
