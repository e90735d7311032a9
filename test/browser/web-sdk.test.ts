import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { sendNotification, useDeliveryHarness, waitUntilCompleted } from '../support/delivery-harness.ts';
import { useBrowser } from '../support/browser.ts';
import { useWebSite } from '../support/web-site.ts';
import { waitFor } from '../support/eventually.ts';
import type { ServiceWorkerGlobals, SiteGlobals } from '../support/page-globals.ts';

const adminToken = 'web-sdk-admin';
const {
  harness,
  projects: { project },
} = useDeliveryHarness({
  configOverrides: { adminToken },
  queues: ['send', 'deliver', 'event-ingest'],
  projects: { project: 'team' },
});
const browser = useBrowser();
const site = useWebSite(() => harness.ingress.baseUrl);

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const api = (path: string) =>
  harness.ingress.request('GET', `/v1/projects/${project.projectId}${path}`, { key: project.apiKey });

/** SDK requests the ingress answered, by method, from its own request metrics (a browser reports no preflight to the page). */
async function sdkRequestsAnswered(): Promise<Record<string, number>> {
  const text = await (
    await fetch(`${harness.ingress.baseUrl}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })
  ).text();
  const counts: Record<string, number> = {};
  for (const row of text.split('\n')) {
    const match =
      /^http_request_duration_seconds_count\{method="(\w+)",route="\/v1\/sdk\/[^"]*",status="\d+"\} (\d+)$/.exec(row);
    if (match) counts[match[1]!] = (counts[match[1]!] ?? 0) + Number(match[2]);
  }
  return counts;
}

async function openSite(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(site.origin + path);
  if (path === '/') await page.waitForFunction(() => (globalThis as unknown as SiteGlobals).sdkLoaded === true);
  return page;
}

function initialize(page: Page): Promise<void> {
  return page.evaluate(
    ({ projectId, clientKey, baseUrl }) =>
      (globalThis as unknown as SiteGlobals).PushEngine.initialize({ projectId, clientKey, baseUrl }),
    { projectId: project.projectId, clientKey: project.clientKey, baseUrl: harness.ingress.baseUrl },
  );
}

/**
 * The browser's own push service (Google's, for Chromium) cannot be reached from here, so PushManager answers a
 * subscription the sandbox issued; the SDK, the service worker and everything after the subscription are real.
 */
async function fakePushService(context: BrowserContext, prefix = ''): Promise<Subscription> {
  const response = await fetch(`http://127.0.0.1:${harness.sandbox.port}/webpush/subscriptions`, {
    method: 'POST',
    body: JSON.stringify({ prefix }),
  });
  const subscription = (await response.json()) as Subscription;
  await context.grantPermissions(['notifications'], { origin: site.origin });
  await context.addInitScript((issued: Subscription) => {
    const page = globalThis as unknown as SiteGlobals;
    let current: object | null = null;
    const make = () => ({
      endpoint: issued.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true },
      toJSON: () => ({ endpoint: issued.endpoint, expirationTime: null, keys: issued.keys }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    });
    page.PushManager.prototype.subscribe = async (options) => {
      page.subscribedWith = options?.applicationServerKey;
      current = make();
      return current;
    };
    page.PushManager.prototype.getSubscription = async () => current;
  }, subscription);
  return subscription;
}

async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? context.waitForEvent('serviceworker');
}

describe('the web SDK from another origin, through real CORS preflights', () => {
  it('loads /sdk/web.js, and initialize, setUserId, setTags and trackEvent reach the service', async () => {
    const context = await browser().newContext();
    try {
      const before = await sdkRequestsAnswered();
      const page = await openSite(context);
      await initialize(page);
      // A first visit registers the device in one request after its preflight, then fetches its in-app messages
      // (another URL, so another preflight) without holding initialize up.
      const firstVisit = {
        ...before,
        OPTIONS: (before.OPTIONS ?? 0) + 2,
        PUT: (before.PUT ?? 0) + 1,
        GET: (before.GET ?? 0) + 1,
      };
      const sorted = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort());
      await waitFor(sdkRequestsAnswered, (counts) => sorted(counts) === sorted(firstVisit));
      const deviceId = await page.evaluate(async () => {
        const { PushEngine } = globalThis as unknown as SiteGlobals;
        await PushEngine.setUserId('ada');
        await PushEngine.setTags({ plan: 'pro', visits: 3 });
        await PushEngine.trackEvent('viewed_item', { sku: 'A-1' });
        return PushEngine.getDeviceId();
      });
      expect(deviceId).toMatch(/^web-[0-9a-f]{32}$/);
      expect((await api(`/devices/${deviceId}`)).body.data).toEqual({
        id: deviceId,
        userId: 'ada',
        tags: { plan: 'pro', visits: 3 },
        isSubscribed: false,
        // The browser's, sent with the registration (CONTRACTS §3).
        language: expect.any(String),
        timezone: expect.any(String),
      });
      const events = await waitFor(
        async () => (await api(`/events?deviceId=${deviceId}`)).body.data as Array<{ type: string; data: unknown }>,
        (list) => list.some((event) => event.type === 'viewed_item'),
      );
      expect(events.find((event) => event.type === 'viewed_item')?.data).toEqual({ sku: 'A-1' });
      // Authorization and a JSON body make none of them a simple request. A preflight's answer is cached per URL
      // (Access-Control-Max-Age), so the PATCHes to the device's URL reuse the PUT's, the in-app fetches after each
      // PATCH the first one's, and only the events URL needs one.
      expect(await sdkRequestsAnswered()).toEqual({
        ...before,
        OPTIONS: (before.OPTIONS ?? 0) + 3,
        PUT: (before.PUT ?? 0) + 1,
        GET: (before.GET ?? 0) + 3,
        PATCH: (before.PATCH ?? 0) + 2,
        POST: (before.POST ?? 0) + 1,
      });
    } finally {
      await context.close();
    }
  });
});

describe('Web Push end to end in the browser', () => {
  it('subscribes, receives a send by userId as a valid VAPID push, shows it, and counts a click', async () => {
    const context = await browser().newContext();
    try {
      const subscription = await fakePushService(context);
      const page = await openSite(context);
      await initialize(page);
      expect(await page.evaluate(() => (globalThis as unknown as SiteGlobals).PushEngine.subscribe())).toBe(true);
      const { vapidPublicKey } = (
        await harness.ingress.request('GET', `/v1/sdk/projects/${project.projectId}/config`, { key: project.clientKey })
      ).body.data;
      expect(await page.evaluate(() => (globalThis as unknown as SiteGlobals).subscribedWith)).toBe(vapidPublicKey);
      const deviceId = await page.evaluate(async () => {
        const { PushEngine } = globalThis as unknown as SiteGlobals;
        await PushEngine.setUserId('grace');
        return PushEngine.getDeviceId();
      });
      expect(await page.evaluate(() => (globalThis as unknown as SiteGlobals).PushEngine.getIsSubscribed())).toBe(true);
      expect((await api(`/devices/${deviceId}`)).body.data).toMatchObject({ userId: 'grace', isSubscribed: true });

      const url = `${site.origin}/`;
      const id = await sendNotification(harness.ingress, project, {
        targetType: 'userId',
        targetIds: ['grace'],
        title: 'Hello {{ device.userId }}',
        body: 'Your order shipped',
        url,
      });
      expect((await waitUntilCompleted(harness.ingress, project, id)).stats).toMatchObject({ targeted: 1, sent: 1 });
      // The sandbox accepted it only with a valid VAPID signature, and decrypted it with the subscription's keys.
      const [delivery] = harness.sandbox.deliveries(subscription.endpoint);
      expect(delivery).toMatchObject({
        gateway: 'webpush',
        payload: { title: 'Hello grace', body: 'Your order shipped', url, data: { notificationId: id } },
      });

      // The decrypted payload, handed to the page's service worker as the browser's push service would.
      const cdp = await context.newCDPSession(page);
      const registered = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const match = registrations.find(
            (registration) => registration.scopeURL === `${site.origin}/` && !registration.isDeleted,
          );
          if (match) resolve(match.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      const registrationId = await registered;
      const worker = await serviceWorker(context);
      const shown = () =>
        worker.evaluate(async () =>
          (await (globalThis as unknown as ServiceWorkerGlobals).registration.getNotifications()).map(
            ({ title, body, tag }) => ({ title, body, tag }),
          ),
        );
      // Handed over again until shown (three times at most): the tag makes it one notification however often it arrives.
      for (let handedOver = 1; ; handedOver++) {
        await cdp.send('ServiceWorker.deliverPushMessage', {
          origin: site.origin,
          registrationId,
          data: JSON.stringify(delivery!.payload),
        });
        const seen = await waitFor(shown, (notifications) => notifications.length === 1, 5_000).catch(() => null);
        if (seen !== null || handedOver === 3) break;
      }
      const tag = id.replace(/-/g, '');
      expect(await shown()).toEqual([{ title: 'Hello grace', body: 'Your order shipped', tag }]);

      // The same push again (as after a worker crash, CONTRACTS §1), here with a changed body: it replaces the first.
      const again = { ...(delivery!.payload as object), body: 'Shown once' };
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: site.origin,
        registrationId,
        data: JSON.stringify(again),
      });
      await waitFor(shown, (notifications) => notifications.some((notification) => notification.body === 'Shown once'));
      expect(await shown()).toEqual([{ title: 'Hello grace', body: 'Shown once', tag }]);

      // No click can be made on a headless notification: the click event is dispatched in the worker on the notification shown.
      await worker.evaluate(async () => {
        const scope = globalThis as unknown as ServiceWorkerGlobals;
        const [notification] = await scope.registration.getNotifications();
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
      });
      await waitFor(
        () => waitUntilCompleted(harness.ingress, project, id),
        (notification) => notification.stats.clicked === 1,
      );
      const clicks = await waitFor(
        async () => (await api(`/events?deviceId=${deviceId}&type=@clicked`)).body.data as Array<{ data: unknown }>,
        (list) => list.length === 1,
      );
      expect(clicks[0]!.data).toEqual({ notificationId: id });
    } finally {
      await context.close();
    }
  });

  it('unsubscribes a browser whose subscription is gone after one send, and skips it on the next', async () => {
    const context = await browser().newContext();
    try {
      const subscription = await fakePushService(context, 'gone-');
      const page = await openSite(context);
      await initialize(page);
      expect(await page.evaluate(() => (globalThis as unknown as SiteGlobals).PushEngine.subscribe())).toBe(true);
      const deviceId = await page.evaluate(() => (globalThis as unknown as SiteGlobals).PushEngine.getDeviceId());
      const send = async () =>
        (
          await waitUntilCompleted(
            harness.ingress,
            project,
            await sendNotification(harness.ingress, project, {
              targetType: 'device',
              targetIds: [deviceId],
              body: 'Anyone there?',
            }),
          )
        ).stats;
      expect(await send()).toMatchObject({ targeted: 1, sent: 0, unsubscribed: 1 });
      expect((await api(`/devices/${deviceId}`)).body.data.isSubscribed).toBe(false);
      expect(await send()).toMatchObject({ targeted: 0 });
      expect(harness.sandbox.attempts(subscription.endpoint).map((attempt) => attempt.status)).toEqual([410]);
    } finally {
      await context.close();
    }
  });
});
