import { holdLaneForThisFile } from './lane-lock.ts';

/**
 * The set-up of every `one at a time` file (vitest.config.ts): its files run one after another in a lane of their
 * own, beside the `side by side` files' lane, never beside another of their own.
 */
await holdLaneForThisFile('one-at-a-time');
