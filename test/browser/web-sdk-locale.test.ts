import { describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { useIngress } from '../support/ingress.ts';
import { useBrowser } from '../support/browser.ts';
import { useWebSite } from '../support/web-site.ts';
import { waitFor } from '../support/eventually.ts';
import type { SiteGlobals } from '../support/page-globals.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });
const browser = useBrowser();
const site = useWebSite(() => ingress.baseUrl);

/** What the test reaches of the page's window (the test itself is typed for Node). */
interface PageWindow {
  navigator: object;
  dispatchEvent(event: Event): boolean;
}

const device = async (deviceId: string) =>
  (await ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, { key: project.apiKey })).body
    .data;

async function visit(
  contextOptions: BrowserContextOptions,
  use: (page: Page, deviceId: string, sdkCalls: string[]) => Promise<void>,
): Promise<void> {
  const context = await browser().newContext(contextOptions);
  try {
    const page = await context.newPage();
    const sdkCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/sdk/')) sdkCalls.push(`${request.method()} ${request.postData() ?? ''}`);
    });
    await page.goto(site.origin);
    await page.waitForFunction(() => (globalThis as unknown as SiteGlobals).sdkLoaded === true);
    const options = { projectId: project.projectId, clientKey: project.clientKey, baseUrl: ingress.baseUrl };
    const deviceId = await page.evaluate(async (o) => {
      const { PushEngine } = globalThis as unknown as SiteGlobals;
      await PushEngine.initialize(o);
      return PushEngine.getDeviceId();
    }, options);
    await use(page, deviceId, sdkCalls);
  } finally {
    await context.close();
  }
}

describe('the web SDK and the visitor locale (CONTRACTS §3)', () => {
  it("sends the browser's language and time zone at initialize, and again only when one changes", async () => {
    await visit({ locale: 'pt-BR', timezoneId: 'Asia/Seoul' }, async (page, deviceId, sdkCalls) => {
      expect(await device(deviceId)).toMatchObject({ language: 'pt-BR', timezone: 'Asia/Seoul' });
      // A reload with nothing changed costs no call of its own (the registration a load makes carries it anyway).
      const before = sdkCalls.length;
      await page.reload();
      await page.waitForFunction(() => (globalThis as unknown as SiteGlobals).sdkLoaded === true);
      await page.evaluate((o) => (globalThis as unknown as SiteGlobals).PushEngine.initialize(o), {
        projectId: project.projectId,
        clientKey: project.clientKey,
        baseUrl: ingress.baseUrl,
      });
      expect(sdkCalls.slice(before).filter((call) => call.startsWith('PATCH'))).toEqual([]);
      // The browser's language changes while the page is open.
      await page.evaluate(() => {
        const page = globalThis as unknown as PageWindow;
        Object.defineProperty(page.navigator, 'language', { value: 'ko', configurable: true });
        page.dispatchEvent(new Event('languagechange'));
      });
      await waitFor(
        async () => (await device(deviceId)).language,
        (language) => language === 'ko',
      );
    });
  });

  it('lets the site choose the language with setLanguage, kept over the browser language', async () => {
    await visit({ locale: 'en-US', timezoneId: 'America/New_York' }, async (page, deviceId) => {
      expect(await device(deviceId)).toMatchObject({ language: 'en-US', timezone: 'America/New_York' });
      await page.evaluate(() => (globalThis as unknown as SiteGlobals).PushEngine.setLanguage('ko'));
      expect((await device(deviceId)).language).toBe('ko');
      await page.evaluate(() => (globalThis as unknown as PageWindow).dispatchEvent(new Event('languagechange')));
      await page.reload();
      await page.waitForFunction(() => (globalThis as unknown as SiteGlobals).sdkLoaded === true);
      await page.evaluate((o) => (globalThis as unknown as SiteGlobals).PushEngine.initialize(o), {
        projectId: project.projectId,
        clientKey: project.clientKey,
        baseUrl: ingress.baseUrl,
      });
      expect((await device(deviceId)).language).toBe('ko');
    });
  });
});
