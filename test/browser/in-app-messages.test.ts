import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useIngress } from '../support/ingress.ts';
import { axeViolations } from '../support/axe.ts';
import { useBrowser } from '../support/browser.ts';
import { createServer } from 'node:http';
import { useResource } from '../support/use-resource.ts';
import { eventually, waitFor } from '../support/eventually.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ workers: ['event-ingest'], projects: { project: 'team' } });
const browser = useBrowser();

/**
 * The shop's page, served with its CSP by a server of its own on loopback: Chromium lets a page reach the loopback
 * ingress only when the page itself came from a local address, which a page fulfilled by the test would not.
 */
const shopSite = useResource(async () => {
  const server = createServer((request, response) => {
    if (request.url === '/landing')
      return void response.writeHead(200, { 'content-type': 'text/html' }).end('<title>landing</title>');
    if (request.url === '/push-engine-sw.js')
      return void response
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(`importScripts('${ingress.baseUrl}/sdk/service-worker.js');`);
    response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': policy() }).end(page());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    origin: `http://localhost:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});

const nonce = 'in-app-test';
/** A site's strict policy: scripts only from itself, the ingress and its nonce; no inline script or style at all. */
const policy = () =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}' ${ingress.baseUrl}`,
    `connect-src ${ingress.baseUrl}`,
    `img-src 'self' ${shopSite.origin}`,
    "style-src 'self'",
    "worker-src 'self'",
  ].join('; ');

const page = () => `<!doctype html><html lang="en"><title>shop</title>
<script nonce="${nonce}">window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));</script>
<script type="module" nonce="${nonce}">import PushEngine from '${ingress.baseUrl}/sdk/web.js'; window.PushEngine = PushEngine;</script>
<main><h1>Shop</h1><button id="menu">Menu</button></main>`;

const messagesPath = () => `/v1/projects/${project.projectId}/in-app-messages`;

async function createMessage(fields: Record<string, unknown>): Promise<string> {
  const created = await ingress.request('POST', messagesPath(), {
    key: project.apiKey,
    body: { name: 'test', status: 'active', layout: 'modal', body: 'Body', frequency: 'always', ...fields },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.id;
}

const eventsOf = (deviceId: string, type: string) =>
  ingress
    .request('GET', `/v1/projects/${project.projectId}/events?deviceId=${deviceId}&type=${type}`, {
      key: project.apiKey,
    })
    .then((answer) => answer.body.data as Array<{ data: Record<string, string> }>);

const reported = (deviceId: string, type: string, messageId: string, count: number) =>
  waitFor(
    async () => (await eventsOf(deviceId, type)).filter((event) => event.data.inAppMessageId === messageId),
    (events) => events.length >= count,
  );

async function openShop(tags: Record<string, string> = {}) {
  const context = await browser().newContext();
  const tab = await context.newPage();
  const alerts: string[] = [];
  tab.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  const load = async () => {
    await tab.goto(`${shopSite.origin}/shop.html`);
    // A module script runs before the load event goto waits for.
    const fetched = tab.waitForResponse((response) => response.url().endsWith('/in-app-messages'));
    await tab.evaluate((options) => (globalThis as any).PushEngine.initialize(options), {
      projectId: project.projectId,
      clientKey: project.clientKey,
      baseUrl: ingress.baseUrl,
    });
    if (Object.keys(tags).length > 0) await tab.evaluate((tags) => (globalThis as any).PushEngine.setTags(tags), tags);
    console.log('initialized');
    return (await (await fetched).json()).data as Array<{ id: string }>;
  };
  const offered = await load();
  const deviceId: string = await tab.evaluate(() => (globalThis as any).PushEngine.getDeviceId());
  return { context, tab, alerts, deviceId, offered, load };
}

const track = (tab: Page, type: string) =>
  tab.evaluate((type) => (globalThis as any).PushEngine.trackEvent(type), type);

/** The element focused inside the message's shadow root, by its text. */
const focusedInMessage = (tab: Page) =>
  tab.evaluate(
    () =>
      (globalThis as any).document.querySelector('push-engine-message')?.shadowRoot?.activeElement?.textContent ?? null,
  );

describe('in-app messages in the web SDK, on a site of another origin with a strict CSP (CONTRACTS §16)', () => {
  it('shows a modal on its event, rendered for the device, and a url button opens its url and reports the click', async () => {
    const id = await createMessage({
      title: 'Hi {{ device.tags.name | default: "there" }}',
      body: 'Your cart is waiting',
      trigger: { event: 'added_to_cart' },
      buttons: [
        { id: 'open-cart', text: 'Open cart', action: 'url', url: `${shopSite.origin}/landing` },
        { id: 'later', text: 'Later', action: 'close' },
      ],
    });
    const shop = await openShop({ name: 'Ada' });
    try {
      await shop.load();
      await track(shop.tab, 'added_to_cart');
      const dialog = shop.tab.getByRole('dialog', { name: 'Hi Ada' });
      await dialog.waitFor();
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      await eventually(async () => expect(await focusedInMessage(shop.tab)).toBe('Open cart'));
      expect(await axeViolations(shop.tab)).toEqual([]);
      await reported(shop.deviceId, '@iam_displayed', id, 1);

      await dialog.getByRole('button', { name: 'Open cart' }).click();
      await shop.tab.waitForURL(`${shopSite.origin}/landing`);
      const [click] = await reported(shop.deviceId, '@iam_clicked', id, 1);
      expect(click!.data.buttonId).toBe('open-cart');
      expect(await eventsOf(shop.deviceId, '@iam_displayed')).toHaveLength(1);
      const stats = await ingress.request('GET', `${messagesPath()}/${id}`, { key: project.apiKey });
      expect(stats.body.data.stats).toEqual({ displayed: 1, clicked: 1, closed: 0 });
      expect(shop.alerts).toEqual([]);
    } finally {
      await ingress.request('DELETE', `${messagesPath()}/${id}`, { key: project.apiKey });
      await shop.context.close();
    }
  });

  it('closes a banner on Escape, gives focus back and reports @iam_closed; "always" shows at each trigger', async () => {
    const id = await createMessage({
      layout: 'banner',
      title: 'Free shipping today',
      trigger: { event: 'opened_menu' },
      frequency: 'always',
    });
    const shop = await openShop();
    try {
      for (const showing of [1, 2]) {
        await shop.tab.focus('#menu');
        await track(shop.tab, 'opened_menu');
        const banner = shop.tab.getByRole('dialog', { name: 'Free shipping today' });
        await banner.waitFor();
        await eventually(async () => expect(await focusedInMessage(shop.tab)).toBe('×'));
        if (showing === 1) expect(await axeViolations(shop.tab)).toEqual([]);
        await shop.tab.keyboard.press('Escape');
        await banner.waitFor({ state: 'detached' });
        expect(await shop.tab.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('menu');
        await reported(shop.deviceId, '@iam_closed', id, showing);
        await reported(shop.deviceId, '@iam_displayed', id, showing);
      }
      expect(await shop.tab.evaluate(() => (globalThis as any).violations)).toEqual([]);
    } finally {
      await ingress.request('DELETE', `${messagesPath()}/${id}`, { key: project.apiKey });
      await shop.context.close();
    }
  });

  it('shows hostile content as text, and a "once" message is not shown again after a reload', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const id = await createMessage({ title: hostile, body: hostile, trigger: { event: 'hostile' }, frequency: 'once' });
    const shop = await openShop();
    try {
      await track(shop.tab, 'hostile');
      const dialog = shop.tab.getByRole('dialog', { name: hostile });
      await dialog.waitFor();
      expect(await dialog.locator('img').count()).toBe(0);
      expect(await dialog.getByText(hostile).count()).toBe(2);
      await shop.tab.keyboard.press('Escape');
      await reported(shop.deviceId, '@iam_displayed', id, 1);

      const offered = await shop.load();
      expect(offered.map((message) => message.id)).not.toContain(id);
      await track(shop.tab, 'hostile');
      expect(await shop.tab.locator('push-engine-message').count()).toBe(0);
      expect(shop.alerts).toEqual([]);
      expect(await shop.tab.evaluate(() => (globalThis as any).violations)).toEqual([]);
    } finally {
      await ingress.request('DELETE', `${messagesPath()}/${id}`, { key: project.apiKey });
      await shop.context.close();
    }
  });

  it('lets the page handle a button itself through setInAppMessageHandler', async () => {
    const id = await createMessage({
      title: 'Handled',
      trigger: { on: 'session_start' },
      buttons: [{ id: 'go', text: 'Go', action: 'url', url: `${shopSite.origin}/landing` }],
    });
    const shop = await openShop();
    try {
      await shop.tab.evaluate(() => {
        (globalThis as any).handled = [];
        (globalThis as any).PushEngine.setInAppMessageHandler(({ message, button }: any) => {
          (globalThis as any).handled.push(`${message.title}:${button.id}`);
          return true;
        });
      });
      const dialog = shop.tab.getByRole('dialog', { name: 'Handled' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Go' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await shop.tab.evaluate(() => (globalThis as any).handled)).toEqual(['Handled:go']);
      expect(shop.tab.url()).toBe(`${shopSite.origin}/shop.html`);
      await reported(shop.deviceId, '@iam_clicked', id, 1);
    } finally {
      await ingress.request('DELETE', `${messagesPath()}/${id}`, { key: project.apiKey });
      await shop.context.close();
    }
  });

  it('keeps the renderer out of the first load: web.js under 8 KB gzipped, in-app.js under 10 KB more', async () => {
    const { gzipSync } = await import('node:zlib');
    const size = async (file: string) =>
      gzipSync(Buffer.from(await (await fetch(`${ingress.baseUrl}/sdk/${file}`)).arrayBuffer()), { level: 9 }).length;
    const first = await size('web.js');
    expect(first).toBeLessThan(8 * 1024);
    expect(await size('in-app.js')).toBeLessThan(10 * 1024);
    const source = await (await fetch(`${ingress.baseUrl}/sdk/web.js`)).text();
    expect(source).not.toContain('adoptedStyleSheets');
  });
});
