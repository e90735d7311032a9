import type { WebPushPayload } from '../../../src/gateways/webpush/webpush-payload.ts';
import { clientStateKey, readState, type ClientState } from '../storage.ts';

/**
 * The push service worker, served at /sdk/service-worker.js. A site registers its own file at its origin that
 * holds `importScripts('https://push.example.com/sdk/service-worker.js')`, beside anything else it does.
 */
declare const self: ServiceWorkerGlobalScope;

interface ClickData {
  url: string | null;
  notificationId: string | null;
}

/** `image` is shown by Chromium browsers; TypeScript's DOM types do not list it yet. */
type ShownOptions = NotificationOptions & { image?: string };

self.addEventListener('push', (event) => {
  const payload = event.data?.json() as WebPushPayload | undefined;
  if (!payload) return;
  const data: ClickData = { url: payload.url, notificationId: payload.data.notificationId ?? null };
  const options: ShownOptions = {
    body: payload.body,
    // One notification per collapse id: a push sent twice (CONTRACTS §1) replaces the first rather than stacking.
    tag: payload.tag,
    data,
  };
  if (payload.data.icon) options.icon = payload.data.icon;
  if (payload.imageUrl) options.image = payload.imageUrl;
  event.waitUntil(self.registration.showNotification(payload.title ?? '', options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(handleClick(event.notification.data as ClickData));
});

/** Each half on its own: a browser refusing to open a window must not lose the click, nor the reverse. */
async function handleClick(data: ClickData): Promise<void> {
  await Promise.allSettled([reportClick(data.notificationId), data.url ? showPage(data.url) : undefined]);
}

/** @clicked with the notification's id (CONTRACTS §3): it feeds the notification's stats.clicked. */
async function reportClick(notificationId: string | null): Promise<void> {
  const state = await readState<ClientState>(clientStateKey);
  if (!state || !notificationId) return;
  const path = `/v1/sdk/projects/${encodeURIComponent(state.projectId)}/devices/${encodeURIComponent(state.deviceId)}/events`;
  await fetch(state.baseUrl.replace(/\/+$/, '') + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${state.clientKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: '@clicked', data: { notificationId } }),
  });
}

/** A tab already at the url is focused rather than opening a second one. */
async function showPage(url: string): Promise<void> {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) await open.focus();
  else await self.clients.openWindow(target);
}
