import type { PushEngineSdk } from '../../web/sdk/types.ts';

/**
 * What the tests read in the browser, typed without the DOM library (the test program runs on Node's types):
 * code passed to page.evaluate runs in the page or worker and reaches these through globalThis.
 */
export interface SiteGlobals {
  PushEngine: PushEngineSdk;
  PushEngineDeferred?: Array<(sdk: PushEngineSdk) => unknown>;
  sdkLoaded?: boolean;
  rejectionOf(promise: Promise<unknown>): Promise<CaughtError | null>;
  /** The applicationServerKey the SDK subscribed with. */
  subscribedWith?: unknown;
  PushManager: {
    prototype: {
      subscribe(options?: { applicationServerKey?: unknown }): Promise<unknown>;
      getSubscription(): Promise<unknown>;
    };
  };
}

/** An error a page caught, as it crosses to the test: its own fields, with name and message. */
export interface CaughtError {
  name: string;
  message: string;
  status?: number;
  code?: string;
  details?: Array<{ path: string; message: string }>;
}

export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
}

export interface ServiceWorkerGlobals {
  registration: { getNotifications(): Promise<ShownNotification[]> };
  dispatchEvent(event: unknown): boolean;
  NotificationEvent: new (type: string, init: { notification: ShownNotification }) => unknown;
}
