import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { useBrowser } from '../support/browser.ts';
import { useWebSite } from '../support/web-site.ts';
import { eventually, waitFor } from '../support/eventually.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send', 'deliver', 'event-ingest'], projects: { project: 'team' } });
const browser = useBrowser();
const site = useWebSite(() => harness.ingress.baseUrl);

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const options = () => ({
  projectId: project.projectId,
  clientKey: project.clientKey,
  baseUrl: harness.ingress.baseUrl,
});
const isSubscribed = async (deviceId: string) =>
  (
    await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, {
      key: project.apiKey,
    })
  ).body.data.isSubscribed;

async function issue(prefix = ''): Promise<Subscription> {
  const response = await fetch(`http://127.0.0.1:${harness.sandbox.port}/webpush/subscriptions`, {
    method: 'POST',
    body: JSON.stringify({ prefix }),
  });
  return (await response.json()) as Subscription;
}

/**
 * The browser's push service (Google's, for Chromium) cannot be reached from here, so PushManager behaves as
 * Chromium's does with subscriptions the sandbox issued, in order: subscribe() answers the existing subscription when
 * it was made with the same key, refuses with InvalidStateError when it was made with another, and the subscription
 * outlives a reload. `foreignKey` starts the browser with a subscription made with another key (another project on the
 * same site, another push provider).
 */
async function fakePushService(context: BrowserContext, issued: Subscription[], foreignKey?: string) {
  await context.grantPermissions(['notifications'], { origin: site.origin });
  await context.addInitScript(
    ({ issued, foreignKey }: { issued: Subscription[]; foreignKey?: string }) => {
      const page = globalThis as any;
      // As Chromium keeps it: the key's bytes, whichever form subscribe() was given (the SDK gives base64url).
      const keyBytes = (key: string) =>
        Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/')), (character) => character.charCodeAt(0)).buffer;
      const saved = JSON.parse(page.localStorage.getItem('fakeSubscription') ?? 'null');
      let next = saved ? saved.next : 0;
      const make = (index: number, key: string) => {
        page.localStorage.setItem('fakeSubscription', JSON.stringify({ index, key, next }));
        const subscription = issued[index]!;
        return {
          endpoint: subscription.endpoint,
          expirationTime: null,
          options: { userVisibleOnly: true, applicationServerKey: keyBytes(key) },
          key,
          toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
          unsubscribe: async () => {
            page.localStorage.removeItem('fakeSubscription');
            page.currentSubscription = null;
            return true;
          },
        };
      };
      page.currentSubscription = saved ? make(saved.index, saved.key) : foreignKey ? make(next++, foreignKey) : null;
      page.PushManager.prototype.subscribe = async (requested: any) => {
        const key = requested?.applicationServerKey;
        const current = page.currentSubscription;
        if (current) {
          if (current.key !== key)
            throw new DOMException(
              'Registration failed - A subscription with a different applicationServerKey (or gcm_sender_id) already exists; to change the applicationServerKey, unsubscribe then resubscribe.',
              'InvalidStateError',
            );
          return current;
        }
        page.currentSubscription = make(next++, key);
        return page.currentSubscription;
      };
      page.PushManager.prototype.getSubscription = async () => page.currentSubscription;
    },
    { issued, foreignKey },
  );
}

async function withContext(use: (context: BrowserContext) => Promise<void>) {
  const context = await browser().newContext();
  try {
    await use(context);
  } finally {
    await context.close();
  }
}

async function openSite(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(site.origin);
  await page.waitForFunction(() => (globalThis as any).sdkLoaded === true);
  return page;
}

const initialize = (page: Page, serviceWorkerPath?: string) =>
  page.evaluate(
    (o) => (globalThis as any).PushEngine.initialize(o),
    serviceWorkerPath === undefined ? options() : { ...options(), serviceWorkerPath },
  );
const subscribe = (page: Page) =>
  page.evaluate(() =>
    (globalThis as any).PushEngine.subscribe().then(
      (subscribed: boolean) => subscribed,
      (error: Error) => `${error.name}: ${error.message}`,
    ),
  );
const deviceIdOf = (page: Page): Promise<string> => page.evaluate(() => (globalThis as any).PushEngine.getDeviceId());

async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? context.waitForEvent('serviceworker');
}

async function sendTo(deviceId: string, body: string) {
  const id = await sendNotification(harness.ingress, project, { targetType: 'device', targetIds: [deviceId], body });
  return { id, notification: await waitUntilCompleted(harness.ingress, project, id) };
}

interface PushPayload {
  tag: string;
  data: Record<string, unknown>;
}

/** What the sandbox received for a send to the device with `data`, as the push service would hand it to the browser. */
async function pushPayload(
  deviceId: string,
  subscription: Subscription,
  content: { data?: Record<string, string>; imageUrl?: string; buttons?: unknown[] },
) {
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: [deviceId],
    body: 'b',
    ...content,
  });
  await waitUntilCompleted(harness.ingress, project, id);
  const [delivery] = harness.sandbox.deliveries(subscription.endpoint);
  return delivery!.payload as PushPayload;
}

/**
 * Hands the push to the service worker and answers the notifications it shows under the push's tag, once the promise
 * the worker handed to waitUntil (its showNotification) has settled.
 */
function shownFor(worker: Worker, payload: PushPayload) {
  return worker.evaluate(async (payload: string) => {
    const scope = globalThis as any;
    const event = new scope.PushEvent('push', { data: payload });
    const handedOver: Promise<unknown>[] = [];
    const waitUntil = event.waitUntil.bind(event);
    event.waitUntil = (promise: Promise<unknown>) => {
      handedOver.push(promise);
      waitUntil(promise);
    };
    scope.dispatchEvent(event);
    await Promise.all(handedOver);
    const { tag } = JSON.parse(payload);
    return (await scope.registration.getNotifications({ tag })).map(({ image, data }: any) => ({
      image,
      url: data.url,
    }));
  }, JSON.stringify(payload));
}

/**
 * A visitor of the site who subscribed through the fake push service, the site's service worker file at
 * `serviceWorkerPath` (ours by default): the page and the device id.
 */
async function subscribedVisitor(
  context: BrowserContext,
  issued: Subscription[],
  { foreignKey, serviceWorkerPath }: { foreignKey?: string; serviceWorkerPath?: string } = {},
) {
  await fakePushService(context, issued, foreignKey);
  const page = await openSite(context);
  await initialize(page, serviceWorkerPath);
  expect(await subscribe(page)).toBe(true);
  return { page, deviceId: await deviceIdOf(page) };
}

describe('the web SDK through a subscription’s life', () => {
  it('subscribes again after the push service dropped the subscription and the service unsubscribed the device', async () => {
    await withContext(async (context) => {
      const [gone, fresh] = [await issue('gone-'), await issue()];
      const { page, deviceId } = await subscribedVisitor(context, [gone, fresh]);
      expect((await sendTo(deviceId, 'lost')).notification.stats).toMatchObject({ unsubscribed: 1 });
      // The browser still hands out the dead subscription; the visitor clicks "Get notifications" again.
      expect(await subscribe(page)).toBe(true);
      expect(await isSubscribed(deviceId)).toBe(true);
      await sendTo(deviceId, 'found');
      expect(harness.sandbox.deliveries(fresh.endpoint)).toHaveLength(1);
    });
  });

  it('replaces a subscription the browser made with another VAPID key, and keeps one made with the project key', async () => {
    await withContext(async (context) => {
      const [foreign, own, spare] = [await issue(), await issue(), await issue()];
      const { page, deviceId } = await subscribedVisitor(context, [foreign, own, spare], {
        foreignKey: 'BAnotherProjectsVapidKey_-',
      });
      // Asked again (a second click), the subscription made with the project's key is the one kept.
      expect(await subscribe(page)).toBe(true);
      await sendTo(deviceId, 'ours');
      expect(harness.sandbox.deliveries(own.endpoint)).toHaveLength(1);
      expect(harness.sandbox.deliveries(spare.endpoint)).toHaveLength(0);
    });
  });

  it('counts a visitor whose subscription was made with another key as not subscribed from the first page load', async () => {
    await withContext(async (context) => {
      const [foreign, own] = [await issue(), await issue()];
      // The site moved from another provider: the browser still holds that provider's subscription.
      await fakePushService(context, [foreign, own], 'BAnotherProvidersVapidKey_-');
      const page = await openSite(context);
      await initialize(page);
      const deviceId = await deviceIdOf(page);
      expect(await isSubscribed(deviceId)).toBe(false);
      expect(await page.evaluate(() => (globalThis as any).PushEngine.getIsSubscribed())).toBe(false);
      expect(await subscribe(page)).toBe(true);
      await sendTo(deviceId, 'ours');
      expect(harness.sandbox.deliveries(own.endpoint)).toHaveLength(1);
      expect(harness.sandbox.deliveries(foreign.endpoint)).toHaveLength(0);
    });
  });

  it("initializes a subscribed visitor when the project's key cannot be read, leaving the device as the service knows it", async () => {
    await withContext(async (context) => {
      const { page, deviceId } = await subscribedVisitor(context, [await issue()]);
      await page.reload();
      await page.waitForFunction(() => (globalThis as any).sdkLoaded === true);
      // The key kept from the subscription is forgotten (a day old, say), and reading it again fails.
      await page.evaluate(
        (projectId) =>
          new Promise<void>((resolve, reject) => {
            const opening = (globalThis as any).indexedDB.open('push-engine', 1);
            opening.onsuccess = () => {
              const removal = opening.result
                .transaction('state', 'readwrite')
                .objectStore('state')
                .delete(`vapidPublicKey:${projectId}`);
              removal.onsuccess = () => resolve();
              removal.onerror = () => reject(removal.error);
            };
          }),
        project.projectId,
      );
      await page.route('**/config', (route) => route.fulfill({ status: 500, body: '{}' }));
      await initialize(page);
      expect(await isSubscribed(deviceId)).toBe(true);
    });
  });

  it('subscribes with a service worker file kept under a folder, whose scope does not hold the page', async () => {
    await withContext(async (context) => {
      const subscription = await issue();
      const { deviceId } = await subscribedVisitor(context, [subscription], {
        serviceWorkerPath: '/assets/push-engine-sw.js',
      });
      await sendTo(deviceId, 'from /assets/');
      expect(harness.sandbox.deliveries(subscription.endpoint)).toHaveLength(1);
    });
  });

  it("shows and opens a push's data.url and data.imageUrl when it has no url or imageUrl of its own and they are web addresses", async () => {
    await withContext(async (context) => {
      const subscription = await issue();
      const { deviceId } = await subscribedVisitor(context, [subscription]);
      const [url, imageUrl] = [`${site.origin}/from-data`, `${site.origin}/image.png`];
      const payload = await pushPayload(deviceId, subscription, { data: { url, imageUrl } });
      const worker = await serviceWorker(context);
      expect(await shownFor(worker, payload)).toEqual([{ image: imageUrl, url }]);
      // An app's deep link in data.url is no address a browser opens: the click opens nothing rather than failing.
      const deepLink = { ...payload, tag: 'deep-link', data: { ...payload.data, url: 'myapp://orders/7' } };
      expect(await shownFor(worker, deepLink)).toEqual([{ image: imageUrl, url: null }]);
    });
  });

  it("reads relative addresses, the notification's own and those in data, against the site, also from a service worker kept under a folder", async () => {
    await withContext(async (context) => {
      const subscription = await issue();
      const { deviceId } = await subscribedVisitor(context, [subscription], {
        serviceWorkerPath: '/assets/push-engine-sw.js',
      });
      const payload = await pushPayload(deviceId, subscription, { data: { url: 'from-data', imageUrl: 'image.png' } });
      const worker = await serviceWorker(context);
      expect(await shownFor(worker, payload)).toEqual([
        { image: `${site.origin}/image.png`, url: `${site.origin}/from-data` },
      ]);
      const own = {
        ...payload,
        tag: 'own-image',
        imageUrl: 'image.png',
        data: { notificationId: payload.data.notificationId },
      };
      expect(await shownFor(worker, own)).toEqual([{ image: `${site.origin}/image.png`, url: null }]);
    });
  });

  it('keeps a subscribed visitor subscribed when the service worker file fails to load on a later visit', async () => {
    await withContext(async (context) => {
      const { page, deviceId } = await subscribedVisitor(context, [await issue()]);
      await page.reload();
      await page.waitForFunction(() => (globalThis as any).sdkLoaded === true);
      // A deploy renamed the file and the site answers 404 for it for a moment: the browser's push state is unknown.
      await initialize(page, '/push-engine-sw-v2.js');
      expect(await isSubscribed(deviceId)).toBe(true);
    });
  });

  it('registers the subscription the push service renewed (pushsubscriptionchange) from the service worker', async () => {
    await withContext(async (context) => {
      const [first, renewed] = [await issue(), await issue()];
      const { deviceId } = await subscribedVisitor(context, [first]);
      const worker = await serviceWorker(context);
      // What Firefox fires when its push service renews a subscription; Chromium cannot be made to fire it.
      await worker.evaluate((renewed: Subscription) => {
        const scope = globalThis as any;
        const event = new scope.ExtendableEvent('pushsubscriptionchange');
        Object.assign(event, {
          oldSubscription: null,
          newSubscription: {
            endpoint: renewed.endpoint,
            options: { userVisibleOnly: true },
            toJSON: () => ({ endpoint: renewed.endpoint, expirationTime: null, keys: renewed.keys }),
          },
        });
        scope.dispatchEvent(event);
      }, renewed);
      const { Device } = harness.ingress.context.models;
      await eventually(async () =>
        expect((await Device.findOne({ deviceId }).lean())?.pushToken).toBe(renewed.endpoint),
      );
      await sendTo(deviceId, 'after renewal');
      expect(harness.sandbox.deliveries(renewed.endpoint)).toHaveLength(1);
    });
  });

  it('counts a click whose @clicked report first meets a 503', async () => {
    await withContext(async (context) => {
      const { deviceId } = await subscribedVisitor(context, [await issue()]);
      const { id } = await sendTo(deviceId, 'click me');
      const worker = await serviceWorker(context);
      await worker.evaluate(async (notificationId: string) => {
        const scope = globalThis as any;
        const realFetch = scope.fetch.bind(scope);
        let refused = false;
        // The ingress answers one 503 (CONTRACTS §1: nothing was accepted, try again).
        scope.fetch = (input: unknown, init: unknown) => {
          if (refused) return realFetch(input, init);
          refused = true;
          return Promise.resolve(
            new Response(JSON.stringify({ error: { code: 'unavailable', message: 'later' } }), {
              status: 503,
              headers: { 'content-type': 'application/json', 'retry-after': '0' },
            }),
          );
        };
        await scope.registration.showNotification('T', {
          body: 'click me',
          tag: 'retry',
          data: { url: null, notificationId },
        });
        const [notification] = await scope.registration.getNotifications({ tag: 'retry' });
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
      }, id);
      await waitFor(
        () => readNotification(harness.ingress, project, id),
        (notification) => notification.stats.clicked === 1,
      );
    });
  });

  it('shows two buttons as actions; a click on one reports @clicked with its buttonId and opens its url', async () => {
    await withContext(async (context) => {
      const subscription = await issue();
      const { deviceId } = await subscribedVisitor(context, [subscription]);
      const payload = await pushPayload(deviceId, subscription, {
        buttons: [
          { id: 'buy', text: 'Buy now', url: '/buy?d={{ device.id }}' },
          { id: 'later', text: 'Later' },
        ],
      });
      const notificationId = payload.data.notificationId as string;
      const worker = await serviceWorker(context);
      const seen = await worker.evaluate(async (payload: string) => {
        const scope = globalThis as any;
        const opened: string[] = [];
        scope.clients.openWindow = async (url: string) => {
          opened.push(url);
          return null;
        };
        const push = new scope.PushEvent('push', { data: payload });
        const shown: Promise<unknown>[] = [];
        push.waitUntil = (promise: Promise<unknown>) => shown.push(promise);
        scope.dispatchEvent(push);
        await Promise.all(shown);
        const [notification] = await scope.registration.getNotifications({ tag: JSON.parse(payload).tag });
        const click = new scope.NotificationEvent('notificationclick', { notification, action: 'buy' });
        const handled: Promise<unknown>[] = [];
        click.waitUntil = (promise: Promise<unknown>) => handled.push(promise);
        scope.dispatchEvent(click);
        await Promise.all(handled);
        return { actions: notification.actions.map((action: any) => [action.action, action.title]), opened };
      }, JSON.stringify(payload));
      expect(seen.actions).toEqual([
        ['buy', 'Buy now'],
        ['later', 'Later'],
      ]);
      expect(seen.opened).toEqual([`${site.origin}/buy?d=${deviceId}`]);
      const clicks = await waitFor(
        async () =>
          (
            await harness.ingress.request(
              'GET',
              `/v1/projects/${project.projectId}/events?deviceId=${deviceId}&type=%40clicked`,
              { key: project.apiKey },
            )
          ).body.data,
        (events: Array<{ data: unknown }>) => events.length === 1,
      );
      expect(clicks[0]!.data).toEqual({ notificationId, buttonId: 'buy' });
    });
  });

  it("leaves another sender's pushes and the site's own notifications alone, without closing or throwing", async () => {
    await withContext(async (context) => {
      await subscribedVisitor(context, [await issue()]);
      const worker = await serviceWorker(context);
      const seen = await worker.evaluate(async () => {
        const scope = globalThis as any;
        const errors: string[] = [];
        scope.addEventListener('error', (event: any) => errors.push(String(event.message)));
        scope.dispatchEvent(new scope.PushEvent('push', { data: 'plain text from another sender' }));
        scope.dispatchEvent(new scope.PushEvent('push', { data: JSON.stringify({ kind: 'theirs' }) }));
        await scope.registration.showNotification('From the site', { tag: 'site-own', data: { page: '/cart' } });
        const [own] = await scope.registration.getNotifications({ tag: 'site-own' });
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: own }));
        return { errors, stillShown: (await scope.registration.getNotifications({ tag: 'site-own' })).length };
      });
      expect(seen).toEqual({ errors: [], stillShown: 1 });
    });
  });

  it('runs the callbacks queued in PushEngineDeferred in turn until one has initialized, then without waiting', async () => {
    await withContext(async (context) => {
      const page = await context.newPage();
      await page.addInitScript((o) => {
        const scope = globalThis as any;
        scope.PushEngineDeferred ??= [];
        scope.PushEngineDeferred.push(async (sdk: any) => {
          await new Promise((resolve) => setTimeout(resolve, 50)); // a consent check, say
          await sdk.initialize(o);
        });
        // Once initialized, a callback left waiting (on a permission prompt, say) holds up none after it.
        scope.PushEngineDeferred.push(() => new Promise(() => undefined));
        scope.PushEngineDeferred.push(async (sdk: any) => {
          await sdk.setUserId('deferred-ada');
          scope.linkedDevice = await sdk.getDeviceId();
        });
      }, options());
      await page.goto(`${site.origin}/script-tag.html`);
      const deviceId = await waitFor(
        () => page.evaluate(() => (globalThis as any).linkedDevice as string | undefined),
        (linked) => linked !== undefined,
        5000,
      );
      const { Device } = harness.ingress.context.models;
      expect((await Device.findOne({ deviceId }).lean())?.userId).toBe('deferred-ada');
    });
  });
});
