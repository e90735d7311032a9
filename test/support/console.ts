import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { beforeAll, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { QueueName } from '../../src/infra/queue-names.ts';
import { useBrowser } from './browser.ts';
import { testStateDir } from './suite-runs.ts';
import { registerDevices, useDeliveryHarness } from './delivery-harness.ts';
import { screenTitles, type ScreenName } from '../../web/console/screen-titles.ts';

/**
 * The console in headless Chromium against the real ingress, send/deliver/event workers, sandbox gateways, Redis and
 * MongoDB-wire server: every click goes through the public API the console is built on.
 */

export const adminToken = 'console-browser-admin-token';
export const hostileTag = '<img src=x onerror=alert(1)>';
export const screenshots = resolve(testStateDir, 'console-screenshots');

export const vip = [
  {
    id: 'vip-1',
    platform: 'android',
    token: 'console-vip-1',
    userId: 'console-user',
    tags: { group: 'vip', name: 'Ada' },
  },
  { id: 'vip-2', platform: 'ios', token: 'console-vip-2', tags: { group: 'vip', name: 'Grace' } },
  { id: 'vip-gone', platform: 'android', token: 'unregistered-console-vip-3', tags: { group: 'vip' } },
] as const;

/** Polls what the page shows until it matches: the screens load and refresh asynchronously. */
export const until = <T>(read: () => Promise<T> | T, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 15_000, ...options });

/**
 * `read` after the page's next read of its data: a page that reads it again every `everyMs` (the notification page, the
 * journey page) has its clock, installed before it opened (page.clock.install()), moved on to that read, not waited for.
 */
export const afterRefresh =
  <T>(page: Page, everyMs: number, read: () => Promise<T>) =>
  async (): Promise<T> => {
    await page.clock.fastForward(everyMs);
    return read();
  };

export interface ConsolePage {
  page: Page;
  dialogs: string[];
  close(): Promise<void>;
}

/**
 * For the test file: the engine with its send, deliver and event-ingest workers and those of `moreQueues`, a browser, and three projects: `project`
 * (team) holding the `vip` devices, a regular one and one tagged with `hostileTag`, and three events; `second`
 * (starter) for the ADMIN_TOKEN project switch; `lists` (team), empty.
 */
export function useConsole(moreQueues: QueueName[] = []) {
  const {
    harness,
    projects: { project, second, lists },
  } = useDeliveryHarness({
    configOverrides: { adminToken },
    queues: ['send', 'deliver', 'event-ingest', ...moreQueues],
    projects: { project: 'team', second: 'starter', lists: 'team' },
  });
  const browser = useBrowser();

  beforeAll(async () => {
    await registerDevices(harness.ingress, project, [
      ...vip,
      { id: 'regular', platform: 'android', token: 'console-regular', tags: { group: 'regular' } },
      { id: 'hostile', platform: 'web', token: 'console-hostile', tags: { bio: hostileTag } },
    ]);
    const events = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/events`, {
      key: project.apiKey,
      body: {
        events: [
          { type: 'purchase', subjectType: 'device', subjectId: 'vip-1', data: { amount: 12 } },
          { type: 'purchase', subjectType: 'device', subjectId: 'vip-2', data: { amount: 5 } },
          { type: 'view', subjectType: 'device', subjectId: 'vip-1', data: { page: hostileTag } },
        ],
      },
    });
    expect(events.body.data.success).toBe(3);
    await mkdir(screenshots, { recursive: true });
  });

  async function openConsole(width = 1280, timezoneId?: string): Promise<ConsolePage> {
    const context = await browser().newContext({ viewport: { width, height: 900 }, timezoneId });
    // Well under the tests' own timeout, so that a missing element is named rather than the test timing out; long
    // enough for a full suite run on two busy cores, where a sign-in once took over 5 s.
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${harness.ingress.baseUrl}/console`);
    return { page, dialogs, close: () => context.close() };
  }

  async function signIn(page: Page, key = project.apiKey): Promise<void> {
    await page.getByLabel('Server API key or ADMIN_TOKEN').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  }

  return { harness, project, second, lists, openConsole, signIn };
}

/** Opens the screen from the menu, through the menu button where the window is a phone's. */
export async function show(page: Page, screen: ScreenName): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: screenTitles[screen], exact: true })
    .click();
  await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(screenTitles[screen]);
}
