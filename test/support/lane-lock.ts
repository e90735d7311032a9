import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { lock } from 'proper-lockfile';

const stateDir = resolve(import.meta.dirname, '../../.state/test');

/**
 * Waits for the named lock, the only file of the run to hold it until it calls the answer. The lock is a directory
 * that proper-lockfile renews while its holder lives and removes when it exits; one whose holder was killed is taken
 * over once stale. Stale only after a minute without renewal, as a holder's event loop may stall for seconds on a
 * loaded machine: a lock taken from a live holder would only let two files of one lane overlap, so it is said, not
 * thrown.
 */
export async function holdLock(name: string): Promise<() => Promise<void>> {
  await mkdir(stateDir, { recursive: true });
  return lock(resolve(stateDir, name), {
    realpath: false,
    stale: 60_000,
    retries: { forever: true, minTimeout: 100, maxTimeout: 500 },
    onCompromised: (error) => process.stderr.write(`${name} lock lost: ${error.message}\n`),
  });
}

/** Releases the lock; one already taken over (said when it happened) is not this file's failure. */
export async function releaseLock(release: () => Promise<void>): Promise<void> {
  await release().catch((error: { code?: string }) => {
    if (error.code !== 'ERELEASED') throw error;
  });
}
