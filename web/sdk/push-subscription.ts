/** The browser's push state as the SDK reads it: support, its subscription and its key, the service worker's. */
import { randomId } from '../shared/random-id.ts';

/** Safari on iOS offers notifications only to sites added to the home screen. */
export function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

export function newDeviceId(): string {
  return `web-${randomId()}`;
}

/** The registration body for the browser's current push state: its subscription, or none (CONTRACTS §3). */
export function registrationBody(subscription: PushSubscription | null): object {
  return subscription === null ? { platform: 'web' } : { platform: 'web', webPush: subscription.toJSON() };
}

/**
 * The browser's subscription, null when it has none, or undefined when that cannot be known: the service worker's file
 * failed to load (a deploy, a network blip) or the browser has no push. Unknown is not none: telling the service "no
 * subscription" would unsubscribe a visitor who is subscribed.
 */
export async function currentSubscription(
  worker: Promise<ServiceWorkerRegistration>,
): Promise<PushSubscription | null | undefined> {
  try {
    return await (await worker).pushManager.getSubscription();
  } catch {
    return undefined;
  }
}

function base64Url(key: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(key)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The VAPID key the subscription was made with, or null where the browser does not say. */
export function keyOf(subscription: PushSubscription): string | null {
  const key = subscription.options.applicationServerKey;
  return key === null ? null : base64Url(key);
}

/**
 * Resolves once the registration has an active worker, which pushManager.subscribe needs. navigator.serviceWorker.ready
 * would wait for a worker whose scope holds the page, which one under /assets/ never is.
 */
export function activated(registration: ServiceWorkerRegistration): Promise<void> {
  const worker = registration.installing ?? registration.waiting;
  if (registration.active || !worker) return Promise.resolve();
  return new Promise((resolve, reject) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
      if (worker.state === 'redundant') reject(new Error('The service worker failed to install.'));
    });
  });
}
