import { afterAll } from 'vitest';
import { holdLock, releaseLock } from './lane-lock.ts';

/**
 * The set-up of every `side by side` file (vitest.config.ts): its files run one after another in the second lane,
 * beside the `one at a time` files' lane, by holding this lock from before the file loads to after its last hook.
 */
const release = await holdLock('side-by-side');
afterAll(() => releaseLock(release));
