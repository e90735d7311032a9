import type { WebPushPayload } from '../../../src/gateways/webpush/webpush-payload.ts';
import { clientStateKey, readState, type ClientState } from '../storage.ts';
import { randomId } from '../../shared/random-id.ts';

/**
 * The push service worker, served at /sdk/service-worker.js. A site registers its own file at its origin that
 * holds `importScripts('https://push.example.com/sdk/service-worker.js')`, beside anything else it does.
 */
declare const self: ServiceWorkerGlobalScope;

interface ClickData {
  url: string | null;
  notificationId: string | null;
  /** Each button's url by its id (CONTRACTS §14), null for a button without one. */
  buttonUrls?: Record<string, string | null>;
}

/**
 * Ours, or another sender's: the site's own service worker may handle pushes and notifications of its own beside
 * this one, which leaves those alone rather than throwing on them (or closing the site's notifications).
 */
function ourPayload(data: PushMessageData | null): WebPushPayload | undefined {
  let payload: unknown;
  try {
    payload = data?.json();
  } catch {
    return undefined;
  }
  const candidate = payload as Partial<WebPushPayload> | undefined;
  return typeof candidate?.body === 'string' && typeof candidate.tag === 'string' && typeof candidate.data === 'object'
    ? (candidate as WebPushPayload)
    : undefined;
}

/**
 * An address as the site means it: a relative one read against the site, where the browser would read it against this
 * worker's file, which may be kept under a folder. Kept as given when it does not parse.
 */
function siteAddress(value: string): string {
  return URL.canParse(value, self.location.origin) ? new URL(value, self.location.origin).href : value;
}

/** An http(s) address read against the site, or null. */
function webAddress(value: string | undefined): string | null {
  if (value === undefined) return null;
  const address = siteAddress(value);
  return URL.canParse(address) && ['http:', 'https:'].includes(new URL(address).protocol) ? address : null;
}

const isClickData = (data: unknown): data is ClickData =>
  typeof data === 'object' && data !== null && 'notificationId' in data && 'url' in data;

/** `image` and `actions` are shown by Chromium browsers; TypeScript's DOM types do not list them yet. */
type ShownOptions = NotificationOptions & { image?: string; actions?: Array<{ action: string; title: string }> };

self.addEventListener('push', (event) => {
  const payload = ourPayload(event.data);
  if (!payload) return;
  // As on FCM and APNs, where both travel in data: the notification's own url and imageUrl, else data's when it is a
  // web address (data.url is often an app's deep link, myapp://…, which a browser cannot open).
  const url = payload.url === null ? webAddress(payload.data.url) : siteAddress(payload.url);
  const imageUrl = payload.imageUrl === null ? webAddress(payload.data.imageUrl) : siteAddress(payload.imageUrl);
  const data: ClickData = { url, notificationId: payload.data.notificationId ?? null };
  const options: ShownOptions = {
    body: payload.body,
    // One notification per collapse id: a push sent twice (CONTRACTS §1) replaces the first rather than stacking.
    tag: payload.tag,
    data,
  };
  if (payload.data.icon) options.icon = payload.data.icon;
  if (imageUrl) options.image = imageUrl;
  if (payload.buttons && payload.buttons.length > 0) {
    options.actions = payload.buttons.map((button) => ({ action: button.id, title: button.text }));
    data.buttonUrls = Object.fromEntries(
      payload.buttons.map((button) => [button.id, button.url === undefined ? null : siteAddress(button.url)]),
    );
  }
  event.waitUntil(self.registration.showNotification(payload.title ?? '', options));
});

self.addEventListener('notificationclick', (event) => {
  const data: unknown = event.notification.data;
  if (!isClickData(data)) return;
  event.notification.close();
  event.waitUntil(handleClick(data, event.action || null));
});

/**
 * Each half on its own: a browser refusing to open a window must not lose the click, nor the reverse. A click on a
 * button reports which one and opens that button's url; a click on the body opens the notification's.
 */
async function handleClick(data: ClickData, buttonId: string | null): Promise<void> {
  const url = buttonId === null ? data.url : (data.buttonUrls?.[buttonId] ?? null);
  await Promise.allSettled([reportClick(data.notificationId, buttonId), url ? showPage(url) : undefined]);
}

/** Answers worth another try: the plan's rate limit and a service briefly without Redis or MongoDB (CONTRACTS §1). */
const retryStatuses = new Set([429, 503]);
const maxAttempts = 5;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A call to the ingress for this browser's device, as the page's SDK makes them: 429, 503 and network failures are
 * tried again after 1, 2, 4 and 8 s (at least Retry-After), within the event's lifetime; any other answer ends it.
 */
async function callIngress(
  state: ClientState,
  method: 'POST' | 'PUT',
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<void> {
  const devicePath = `/v1/sdk/projects/${encodeURIComponent(state.projectId)}/devices/${encodeURIComponent(state.deviceId)}`;
  for (let attempt = 1; ; attempt++) {
    let retryAfterMs = 0;
    try {
      const response = await fetch(state.baseUrl.replace(/\/+$/, '') + devicePath + path, {
        method,
        headers: { ...headers, authorization: `Bearer ${state.clientKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!retryStatuses.has(response.status)) return;
      retryAfterMs = Number(response.headers.get('retry-after')) * 1000 || 0;
    } catch {
      // The network failed; tried again like a 503.
    }
    if (attempt >= maxAttempts) return;
    await wait(Math.max(retryAfterMs, 1000 * 2 ** (attempt - 1)));
  }
}

/** @clicked with the notification's id (CONTRACTS §3), and the button's (§14): it feeds the notification's stats.clicked. */
async function reportClick(notificationId: string | null, buttonId: string | null): Promise<void> {
  const state = await readState<ClientState>(clientStateKey);
  if (!state || !notificationId) return;
  await callIngress(
    state,
    'POST',
    '/events',
    { type: '@clicked', data: buttonId === null ? { notificationId } : { notificationId, buttonId } },
    { 'idempotency-key': randomId() },
  );
}

/**
 * The push service renewed or dropped the subscription (Firefox fires this; Chromium rarely): the new one is
 * registered at once, else pushes keep going to the old endpoint until the visitor comes back, and its 410
 * unsubscribes the device meanwhile. Without a new one, the browser is asked for one with the old one's options.
 */
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(registerRenewedSubscription(event as PushSubscriptionChangeEvent));
});

async function registerRenewedSubscription(event: PushSubscriptionChangeEvent): Promise<void> {
  const state = await readState<ClientState>(clientStateKey);
  if (!state) return;
  const renewed =
    event.newSubscription ??
    (event.oldSubscription ? await self.registration.pushManager.subscribe(event.oldSubscription.options) : null);
  if (!renewed) return;
  await callIngress(state, 'PUT', '', { platform: 'web', webPush: renewed.toJSON() });
}

/** A tab already at the url is focused rather than opening a second one. */
async function showPage(url: string): Promise<void> {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) await open.focus();
  else await self.clients.openWindow(target);
}
