import type { PushEngineSdk } from './types.ts';
import { createSdk } from './sdk.ts';

type Deferred = (sdk: PushEngineSdk) => unknown;

declare global {
  interface Window {
    PushEngine?: PushEngineSdk;
    /** Calls queued by the page before this script loaded: `window.PushEngineDeferred.push(async (sdk) => ...)`. */
    PushEngineDeferred?: Deferred[] | { push(callback: Deferred): void };
  }
}

/**
 * The script-tag build (/sdk/web.iife.js): it sets window.PushEngine, runs the callbacks the page queued in
 * window.PushEngineDeferred in order, each once the one before has finished, and so on for each one pushed later.
 */
window.PushEngine ??= createSdk();
const sdk = window.PushEngine;
const queued = Array.isArray(window.PushEngineDeferred) ? window.PushEngineDeferred : [];
// One after another, each awaited: a callback that initializes after an await of its own (a consent check) is done
// before the next one calls setUserId.
let previous: Promise<unknown> = Promise.resolve();
const run = (callback: Deferred) => {
  previous = previous.then(() => callback(sdk)).catch((error: unknown) => console.error('PushEngine:', error));
};
window.PushEngineDeferred = { push: run };
for (const callback of queued) run(callback);
