import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolve } from 'node:path';
import { lock, type LockOptions } from 'proper-lockfile';

const stateDir = resolve(import.meta.dirname, '../../.state/test');

/** Files of the process and fault projects that may run at once: the machine's two cores. */
const runSlots = 2;

/**
 * A lock is a directory that proper-lockfile renews while its holder lives and removes when it exits; one whose
 * holder was killed is taken over once stale. Stale only after a minute without renewal, as a holder's event loop may
 * stall for seconds on a loaded machine: a lock taken from a live holder would only let one more file run, so it is
 * said, not thrown.
 */
const lockOptions = (name: string): LockOptions => ({
  realpath: false,
  stale: 60_000,
  onCompromised: (error) => process.stderr.write(`${name} lock lost: ${error.message}\n`),
});

/** Waits for the named lock, the only file of the run to hold it until it calls the answer. */
export async function holdLock(name: string): Promise<() => Promise<void>> {
  await mkdir(stateDir, { recursive: true });
  return lock(resolve(stateDir, name), {
    ...lockOptions(name),
    retries: { forever: true, minTimeout: 100, maxTimeout: 500 },
  });
}

/**
 * Waits for one of the run slots. The process and fault projects have a pool of three, one more than the slots, so
 * that a one-at-a-time file waiting for its lock holds a spare place in the pool rather than a slot: the other file
 * beside the running one-at-a-time file keeps running, and the waiting one starts the moment the lock is free.
 */
export async function holdRunSlot(): Promise<() => Promise<void>> {
  await mkdir(stateDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    for (let slot = 1; slot <= runSlots; slot++) {
      const name = `run-slot-${slot}`;
      const release = await lock(resolve(stateDir, name), lockOptions(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ELOCKED') return undefined;
        throw error;
      });
      if (release !== undefined) return release;
    }
    await sleep(Math.min(100 * 2 ** attempt, 500));
  }
}
