import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { afterAll } from 'vitest';
import { testStateDir } from './suite-runs.ts';

/** The longest a file waits for its lane: the few files of the lane ahead of it take minutes at most. */
const defaultWaitMs = 10 * 60_000;
const retryEveryMs = 100;

type Release = () => Promise<void>;

const fileThatKeptIt =
  "a file before this one, in a worker still running, did not let it go (see that file's after-all hooks)";

/**
 * The locks this process holds, by path. A worker runs file after file (isolate: false), and a file whose earlier
 * after-all hook threw never reaches its release: the process lets any lock it holds go before it takes the next, as
 * it outlives the file that took it. Kept on globalThis, as a set-up file's imports may load again for each file.
 */
const heldLocksKey = Symbol.for('pushengine.test.laneLocks');
const processWide = globalThis as { [heldLocksKey]?: Map<string, Release> };
processWide[heldLocksKey] ??= new Map();
const heldLocks = processWide[heldLocksKey];

const ignoreReleased = (error: { code?: string }) => {
  if (error.code !== 'ERELEASED') throw error;
};

/**
 * Takes the lane's lock, a directory that proper-lockfile renews while its holder lives and removes when it exits;
 * one whose holder was killed is taken over once stale. Stale only after a minute without renewal, as a holder's
 * event loop may stall for seconds on a loaded machine: a lock taken from a live holder would only let two files of
 * one lane overlap, so it is said, not thrown, at the take-over and at the release. A lock that a live process never
 * lets go (a worker left idle after a file whose hooks failed) fails the take after `waitAtMostMs`, naming the lane
 * and, as `heldBy` says, what kept it, rather than holding the run forever.
 */
export async function takeLaneLock(
  lane: string,
  { dir = testStateDir, waitAtMostMs = defaultWaitMs, heldBy = fileThatKeptIt } = {},
) {
  for (const [path, release] of heldLocks) {
    heldLocks.delete(path);
    await release().catch(ignoreReleased);
  }
  await mkdir(dir, { recursive: true });
  const path = resolve(dir, lane);
  const release = await lock(path, {
    realpath: false,
    stale: 60_000,
    retries: { retries: waitAtMostMs / retryEveryMs, factor: 1, minTimeout: retryEveryMs, maxTimeout: retryEveryMs },
    onCompromised: (error) => process.stderr.write(`${lane} lock lost: ${error.message}\n`),
  }).catch((error: { code?: string }) => {
    if (error.code !== 'ELOCKED') throw error;
    throw new Error(`the ${lane} lock was held for over ${waitAtMostMs / 1000} s: ${heldBy}`);
  });
  heldLocks.set(path, release);
  return (): Promise<void> => {
    heldLocks.delete(path);
    return release().catch(ignoreReleased);
  };
}

/** Holds the lane's lock from now (a set-up file: before the test file loads) until after the file's last hook. */
export async function holdLaneForThisFile(lane: string): Promise<void> {
  afterAll(await takeLaneLock(lane));
}
