import { afterAll } from 'vitest';
import { holdLock, releaseLock } from './lane-lock.ts';

/**
 * The set-up of every `one at a time` file (vitest.config.ts): its files run one after another in a lane of their
 * own, beside the `side by side` files' lane, never beside another of their own, by holding this lock from before the
 * file loads to after its last hook.
 */
const release = await holdLock('one-at-a-time');
afterAll(() => releaseLock(release));
