import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { afterAll } from 'vitest';

const stateDir = resolve(import.meta.dirname, '../../.state/test');

/**
 * Holds the lane's lock from now (a set-up file: before the test file loads) until after the file's last hook, so
 * that the lane's files run one after another. The lock is a directory that proper-lockfile renews while its holder
 * lives and removes when it exits; one whose holder was killed is taken over once stale. Stale only after a minute
 * without renewal, as a holder's event loop may stall for seconds on a loaded machine: a lock taken from a live holder
 * would only let two files of one lane overlap, so it is said, not thrown, at the take-over and at the release.
 */
export async function holdLaneForThisFile(lane: string): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const release = await lock(resolve(stateDir, lane), {
    realpath: false,
    stale: 60_000,
    retries: { forever: true, minTimeout: 100, maxTimeout: 500 },
    onCompromised: (error) => process.stderr.write(`${lane} lock lost: ${error.message}\n`),
  });
  afterAll(() =>
    release().catch((error: { code?: string }) => {
      if (error.code !== 'ERELEASED') throw error;
    }),
  );
}
