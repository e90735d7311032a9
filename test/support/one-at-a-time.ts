import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { afterAll } from 'vitest';

const stateDir = resolve(import.meta.dirname, '../../.state/test');

/**
 * The set-up of every `one at a time` file (vitest.config.ts): its files run in the same pool as the `side by side`
 * files, beside one of them but never beside another of its own, by holding this lock from before the file loads to
 * after its last hook. The lock is a directory that proper-lockfile renews while its holder lives and removes when
 * it exits; one whose holder was killed is taken over once stale. Stale only after a minute without renewal, as a
 * holder's event loop may stall for seconds on a loaded machine: a lock taken from a live holder would only let two
 * such files overlap, so it is said, not thrown.
 */
await mkdir(stateDir, { recursive: true });
const release = await lock(resolve(stateDir, 'one-at-a-time'), {
  realpath: false,
  stale: 60_000,
  retries: { forever: true, minTimeout: 100, maxTimeout: 500 },
  onCompromised: (error) => process.stderr.write(`one-at-a-time lock lost: ${error.message}\n`),
});
afterAll(() => release());
