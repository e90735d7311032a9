import { holdLaneForThisFile } from './lane-lock.ts';

/**
 * The set-up of every `side by side` file (vitest.config.ts): its files run one after another in the second lane,
 * beside the `one at a time` files' lane.
 */
await holdLaneForThisFile('side-by-side');
