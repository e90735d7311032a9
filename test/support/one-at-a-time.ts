import { afterAll } from 'vitest';
import { holdLock, holdRunSlot } from './run-slot.ts';

/**
 * The set-up of every `one at a time` file (vitest.config.ts): its files run in the same pool as the `side by side`
 * files, beside one of them but never beside another of its own, by holding this lock from before the file loads to
 * after its last hook, and a run slot (./run-slot.ts) within it.
 */
const releaseLock = await holdLock('one-at-a-time');
const releaseSlot = await holdRunSlot();
afterAll(async () => {
  await releaseSlot();
  await releaseLock();
});
