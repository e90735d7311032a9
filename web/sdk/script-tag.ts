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
 * window.PushEngineDeferred in order, and from then on runs each one pushed at once.
 */
window.PushEngine ??= createSdk();
const sdk = window.PushEngine;
const queued = Array.isArray(window.PushEngineDeferred) ? window.PushEngineDeferred : [];
const run = (callback: Deferred) => {
  Promise.resolve()
    .then(() => callback(sdk))
    .catch((error: unknown) => console.error('PushEngine:', error));
};
window.PushEngineDeferred = { push: run };
for (const callback of queued) run(callback);
