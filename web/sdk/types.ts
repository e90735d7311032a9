/** The public face of the web SDK: /sdk/web.d.ts is made from this file. */

export interface InitializeOptions {
  /** The project id shown by `npm run project:create`. */
  projectId: string;
  /** The project's client key: public by design, never the server API key. */
  clientKey: string;
  /** Where the push service's ingress answers, e.g. https://push.example.com. */
  baseUrl: string;
  /**
   * The site's own service worker file, at the site's origin, which imports ours:
   * `importScripts('https://push.example.com/sdk/service-worker.js')`. Default `/push-engine-sw.js`.
   */
  serviceWorkerPath?: string;
}

export interface TrackEventOptions {
  /**
   * For events fired as the page unloads: sent at once with `keepalive`, outliving the page; an answer is not retried,
   * but one the browser will not send so (over 64 KB, or offline) is sent as any other call, retries included.
   */
  useBeacon?: boolean;
}

export type TagValue = string | number | null;
export type EventValue = string | number | boolean | null | string[] | number[];

/** A call the service refused: the status and the `error` object of CONTRACTS §1. */
export interface PushEngineError extends Error {
  status: number;
  code: string;
  details?: Array<{ path: string; message: string }>;
}

/** A button of an in-app message: `url` opens its url, `close` closes the message. */
export interface InAppButton {
  id: string;
  text: string;
  action: 'url' | 'close';
  url?: string;
}

/** An in-app message as the service rendered it for this device (CONTRACTS §16). */
export interface InAppMessage {
  id: string;
  layout: 'modal' | 'banner';
  title: string | null;
  body: string;
  imageUrl: string | null;
  buttons: InAppButton[];
  trigger: { event: string } | { on: 'session_start' };
  frequency: 'once' | 'always' | { everyDays: number };
  priority: number;
}

/**
 * Called when a visitor clicks a button of an in-app message, after @iam_clicked is reported. Answer true when the
 * page handled the action itself; otherwise the SDK does it (opens the url, or closes the message).
 */
export type InAppMessageHandler = (event: { message: InAppMessage; button: InAppButton }) => boolean | undefined;

export interface PushEngineSdk {
  /**
   * Registers this browser as a device (its push subscription, if it has one) and installs the service worker. Called
   * again with the same options it answers the first call's promise; with other options it rejects.
   */
  initialize(options: InitializeOptions): Promise<void>;
  /** Asks for permission (call it from a click), subscribes with the project's VAPID key and registers the subscription; false when permission is refused. */
  subscribe(): Promise<boolean>;
  getIsSubscribed(): Promise<boolean>;
  /** false unsubscribes this browser from push; true is subscribe(). */
  setIsSubscribed(subscribed: boolean): Promise<boolean>;
  /** Links the device to your user (at login); null unlinks it. */
  setUserId(userId: string | null): Promise<void>;
  /** Merges tags into the device's; a null value deletes the tag. */
  setTags(tags: Record<string, TagValue>): Promise<void>;
  /**
   * The visitor's language as a BCP 47 tag (`ko`, `pt-BR`), chosen on the site: it picks the messages' localizations
   * from now on, in place of the browser's language, which the SDK sends by itself with the browser's time zone.
   */
  setLanguage(language: string): Promise<void>;
  trackEvent(type: string, data?: Record<string, EventValue>, options?: TrackEventOptions): Promise<void>;
  /** The id generated for this browser on its first visit and kept in IndexedDB. */
  getDeviceId(): Promise<string>;
  /** Lets the page handle the button actions of in-app messages itself; null restores the SDK's own. */
  setInAppMessageHandler(handler: InAppMessageHandler | null): void;
}
