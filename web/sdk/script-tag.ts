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
 * window.PushEngineDeferred in order, and from then on each one pushed.
 */
window.PushEngine ??= createSdk();
const sdk = window.PushEngine;
const queued = Array.isArray(window.PushEngineDeferred) ? window.PushEngineDeferred : [];
// Until the SDK is initialized, each callback waits for the one before: one that initializes after an await of its
// own (a consent check) is done before the next one calls setUserId. From then on none waits, so a subscribe() left
// waiting on a permission prompt holds nothing up.
const initialized = new Promise<void>((resolve) => {
  const initialize = sdk.initialize.bind(sdk);
  sdk.initialize = (options) => {
    const started = initialize(options);
    started.then(resolve, () => undefined);
    return started;
  };
});
let previous: Promise<unknown> = Promise.resolve();
const run = (callback: Deferred) => {
  const settled = previous.then(() => callback(sdk)).catch((error: unknown) => console.error('PushEngine:', error));
  previous = Promise.race([settled, initialized]);
};
window.PushEngineDeferred = { push: run };
for (const callback of queued) run(callback);
