import { afterAll } from 'vitest';
import { holdRunSlot } from './run-slot.ts';

/**
 * The set-up of every `side by side` file (vitest.config.ts): a run slot (./run-slot.ts) from before the file loads to
 * after its last hook, so that the process and fault projects run two files at once, whatever their pool of three.
 */
const releaseSlot = await holdRunSlot();
afterAll(() => releaseSlot());
