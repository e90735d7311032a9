import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { useIngress } from '../support/ingress.ts';
import { useBrowser } from '../support/browser.ts';
import { useWebSite } from '../support/web-site.ts';
import { waitFor } from '../support/eventually.ts';
import type { SiteGlobals } from '../support/page-globals.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });
// shop.test is the site on a host name other than localhost: over plain http, not a secure context.
const insecureHost = 'shop.test';
const browser = useBrowser([`--host-resolver-rules=MAP ${insecureHost} 127.0.0.1`]);
const site = useWebSite(() => ingress.baseUrl);

const device = async (deviceId: string) =>
  (await ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, { key: project.apiKey })).body
    .data;

async function openSite(context: BrowserContext, origin = site.origin): Promise<Page> {
  const page = await context.newPage();
  await page.goto(origin);
  await page.waitForFunction(() => (globalThis as unknown as SiteGlobals).sdkLoaded === true);
  return page;
}

const options = () => ({ projectId: project.projectId, clientKey: project.clientKey, baseUrl: ingress.baseUrl });

async function initialized(context: BrowserContext, origin = site.origin): Promise<Page> {
  const page = await openSite(context, origin);
  await page.evaluate((o) => (globalThis as unknown as SiteGlobals).PushEngine.initialize(o), options());
  return page;
}

const deviceIdOf = (page: Page) => page.evaluate(() => (globalThis as unknown as SiteGlobals).PushEngine.getDeviceId());

async function withContext(use: (context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser().newContext();
  try {
    await use(context);
  } finally {
    await context.close();
  }
}

/**
 * Each SDK request the page makes, in the order it leaves the page, answered by `answer` or else by the ingress; the
 * in-app messages fetched after each setUserId and setTags go through uncounted.
 */
async function recordRequests(
  page: Page,
  answer?: (route: Route, index: number) => Promise<boolean>,
): Promise<string[]> {
  const sent: string[] = [];
  await page.route(`${ingress.baseUrl}/v1/sdk/**`, async (route) => {
    const request = route.request();
    if (request.url().endsWith('/in-app-messages')) return route.continue();
    sent.push(`${request.method()} ${request.postData() ?? ''}`);
    if (answer && (await answer(route, sent.length - 1))) return;
    await route.continue();
  });
  return sent;
}

describe('device id', () => {
  it('is generated once and kept in IndexedDB: the same after a reload, another in another browser profile', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const first = await deviceIdOf(page);
      expect((await device(first)).id).toBe(first);
      await page.reload();
      await page.waitForFunction(() => (globalThis as unknown as SiteGlobals).sdkLoaded === true);
      await page.evaluate((options) => (globalThis as unknown as SiteGlobals).PushEngine.initialize(options), {
        projectId: project.projectId,
        clientKey: project.clientKey,
        baseUrl: ingress.baseUrl,
      });
      expect(await deviceIdOf(page)).toBe(first);
      await withContext(async (other) => {
        expect(await deviceIdOf(await initialized(other))).not.toBe(first);
      });
    });
  });
});

describe('the call queue', () => {
  it('holds calls made offline and sends them in the order they were made once the browser is online', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const sent = await recordRequests(page);
      await context.setOffline(true);
      await page.evaluate(() => {
        const globals = globalThis as unknown as SiteGlobals & { pending?: Promise<unknown> };
        const { PushEngine } = globals;
        globals.pending = Promise.all([
          PushEngine.setTags({ step: 1 }),
          PushEngine.setUserId('offline-user'),
          PushEngine.setTags({ step: 2 }),
          PushEngine.trackEvent('came_back'),
        ]);
      });
      expect(
        await page.evaluate(() => (globalThis as unknown as { navigator: { onLine: boolean } }).navigator.onLine),
      ).toBe(false);
      expect(sent).toEqual([]);
      await context.setOffline(false);
      await page.evaluate(() => (globalThis as unknown as { pending: Promise<unknown> }).pending);
      expect(sent).toEqual([
        'PATCH {"tags":{"step":1}}',
        'PATCH {"userId":"offline-user"}',
        'PATCH {"tags":{"step":2}}',
        'POST {"type":"came_back"}',
      ]);
      expect(await device(await deviceIdOf(page))).toMatchObject({ userId: 'offline-user', tags: { step: 2 } });
    });
  });

  it('retries 503 and 429 with backoff, waiting at least Retry-After, then succeeds', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const refusals: Array<[number, string]> = [
        [503, '0'],
        [429, '1'],
      ];
      const sent = await recordRequests(page, async (route, index) => {
        const refusal = refusals[index];
        if (!refusal) return false;
        const [status, retryAfter] = refusal;
        await route.fulfill({
          status,
          headers: {
            'content-type': 'application/json',
            'retry-after': retryAfter,
            'access-control-allow-origin': '*',
            'access-control-expose-headers': 'retry-after',
          },
          body: JSON.stringify({ error: { code: status === 429 ? 'rate_limited' : 'unavailable', message: 'later' } }),
        });
        return true;
      });
      const elapsedMs = await page.evaluate(async () => {
        const started = performance.now();
        await (globalThis as unknown as SiteGlobals).PushEngine.setTags({ retried: 'yes' });
        return performance.now() - started;
      });
      expect(sent).toHaveLength(3);
      // 250 ms after the 503, then Retry-After's second after the 429 (longer than the 500 ms backoff).
      expect(elapsedMs).toBeGreaterThanOrEqual(1200);
      expect((await device(await deviceIdOf(page))).tags).toEqual({ retried: 'yes' });
    });
  });

  it('queues an event once when the answer to it was lost and it was sent again: both carry one Idempotency-Key', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const keys: string[] = [];
      await page.route(`${ingress.baseUrl}/v1/sdk/**/events`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        keys.push(route.request().headers()['idempotency-key'] ?? 'none');
        if (keys.length > 1) return route.continue();
        // The ingress takes the event; its answer never reaches the page.
        await route.fetch();
        await route.abort('connectionreset');
      });
      await page.evaluate(() =>
        (globalThis as unknown as SiteGlobals).PushEngine.trackEvent('answer_lost', { attempt: 'any' }),
      );
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(keys[1]).toBe(keys[0]);
      // One ingest job, under the id the key was bound to (test/events.test.ts: such a job stores its events once).
      const queued = await ingress.context.queues.eventIngest.getJobs(['waiting', 'active', 'completed']);
      expect(queued.filter((job) => job.data.events[0]?.type === 'answer_lost')).toHaveLength(1);
    });
  });

  it('answers options a page got wrong with a rejected promise, which the page can catch, rather than a throw', async () => {
    await withContext(async (context) => {
      const page = await openSite(context);
      const error = await page.evaluate(
        ({ projectId, clientKey }) => {
          const { PushEngine, rejectionOf } = globalThis as unknown as SiteGlobals;
          // A plain-JS page that left baseUrl out.
          return rejectionOf(PushEngine.initialize({ projectId, clientKey } as never));
        },
        { projectId: project.projectId, clientKey: project.clientKey },
      );
      expect(error).toMatchObject({ name: 'TypeError' });
    });
  });

  it('rejects with the service error (CONTRACTS §1) for an answer not worth retrying', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const error = await page.evaluate(() => {
        const { PushEngine, rejectionOf } = globalThis as unknown as SiteGlobals;
        return rejectionOf(PushEngine.setTags({ $bad: 1 }));
      });
      expect(error).toMatchObject({
        name: 'PushEngineError',
        status: 400,
        code: 'invalid_request',
        details: [{ path: expect.stringMatching(/^\/tags/) }],
      });
    });
  });

  it('refuses NaN and infinities, which JSON would send as null (a deletion), naming where they are', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const deviceId = await deviceIdOf(page);
      const errors = await page.evaluate(async () => {
        const { PushEngine, rejectionOf } = globalThis as unknown as SiteGlobals;
        await PushEngine.setTags({ score: 10 });
        return Promise.all([
          rejectionOf(PushEngine.setTags({ score: Number.NaN })),
          rejectionOf(PushEngine.trackEvent('rated', { 'stars/10': Number.POSITIVE_INFINITY })),
          rejectionOf(PushEngine.trackEvent('rated', { stars: 4 }, { useBeacon: true })),
        ]);
      });
      expect(errors).toEqual([
        expect.objectContaining({
          status: 400,
          details: [{ path: '/tags/score', message: 'must be a finite number' }],
        }),
        expect.objectContaining({
          status: 400,
          details: [{ path: '/data/stars~110', message: 'must be a finite number' }],
        }),
        null,
      ]);
      expect((await device(deviceId)).tags).toEqual({ score: 10 });
    });
  });

  it("rejects an event sent with useBeacon with the service's error, and sends one over the browser's keepalive budget as any other call", async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const [refused, large] = await page.evaluate(() => {
        const { PushEngine, rejectionOf } = globalThis as unknown as SiteGlobals;
        // Over Chromium's 64 KB for keepalive requests: 100 values of 1,000 characters.
        const data = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, 'x'.repeat(1000)]));
        return Promise.all([
          rejectionOf(PushEngine.trackEvent('x'.repeat(65), undefined, { useBeacon: true })),
          rejectionOf(PushEngine.trackEvent('large_on_unload', data, { useBeacon: true })),
        ]);
      });
      expect(refused).toMatchObject({ name: 'PushEngineError', status: 400, code: 'invalid_request' });
      expect(refused?.details?.[0]?.path).toMatch(/^\/type/);
      expect(large).toBeNull();
      const queued = await ingress.context.queues.eventIngest.getJobs(['waiting', 'active', 'completed']);
      expect(queued.filter((job) => job.data.events[0]?.type === 'large_on_unload')).toHaveLength(1);
    });
  });
});

describe('initialize', () => {
  it('rejects a second initialize with other options, which would have been ignored, and takes the same ones again', async () => {
    await withContext(async (context) => {
      const page = await initialized(context);
      const other = { ...options(), projectId: 'another-project' };
      const [again, otherProject] = await page.evaluate(
        ({ same, other }) => {
          const { PushEngine, rejectionOf } = globalThis as unknown as SiteGlobals;
          return Promise.all([rejectionOf(PushEngine.initialize(same)), rejectionOf(PushEngine.initialize(other))]);
        },
        // The same options as they take effect: the base URL with a slash, the worker's default path given.
        { same: { ...options(), baseUrl: `${options().baseUrl}/`, serviceWorkerPath: '/push-engine-sw.js' }, other },
      );
      expect(again).toBeNull();
      expect(otherProject?.message).toMatch(/already initialized with other options/);
    });
  });

  it('works on a page that is not a secure context (plain http on a host name): a device without push, with its user, tags and events', async () => {
    await withContext(async (context) => {
      const page = await initialized(context, site.origin.replace('localhost', insecureHost));
      expect(await page.evaluate(() => (globalThis as unknown as { isSecureContext: boolean }).isSecureContext)).toBe(
        false,
      );
      const deviceId = await page.evaluate(async () => {
        const { PushEngine } = globalThis as unknown as SiteGlobals;
        await PushEngine.setUserId('plain-http-user');
        await PushEngine.setTags({ plan: 'pro' });
        return PushEngine.getDeviceId();
      });
      expect(await device(deviceId)).toMatchObject({
        userId: 'plain-http-user',
        tags: { plan: 'pro' },
        isSubscribed: false,
      });
    });
  });
});

describe('the script-tag build', () => {
  it('runs the calls a page queued in PushEngineDeferred before the script loaded, in order', async () => {
    await withContext(async (context) => {
      const page = await context.newPage();
      await page.addInitScript(
        (options) => {
          const globals = globalThis as unknown as SiteGlobals & { deferredDeviceId?: string };
          globals.PushEngineDeferred ??= [];
          const queue = globals.PushEngineDeferred;
          queue.push((sdk) => sdk.initialize(options));
          queue.push(async (sdk) => {
            await sdk.setUserId('deferred-user');
            globals.deferredDeviceId = await sdk.getDeviceId();
          });
        },
        { projectId: project.projectId, clientKey: project.clientKey, baseUrl: ingress.baseUrl },
      );
      await page.goto(`${site.origin}/script-tag.html`);
      const deviceId = await waitFor(
        () => page.evaluate(() => (globalThis as unknown as { deferredDeviceId?: string }).deferredDeviceId),
        (id) => id !== undefined,
      );
      expect(await device(deviceId!)).toMatchObject({ userId: 'deferred-user', isSubscribed: false });
    });
  });
});
