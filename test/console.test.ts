import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { useBrowser } from './support/browser.ts';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from './support/delivery-harness.ts';
import { screenTitles, type ScreenName } from '../web/console/screen-titles.ts';
import { redisKeys } from '../src/infra/redis-keys.ts';

/**
 * The console in headless Chromium against the real ingress, send/deliver/event workers, sandbox gateways, Redis and
 * MongoDB-wire server: every click goes through the public API the console is built on.
 */

const adminToken = 'console-browser-admin-token';
const hostileTag = '<img src=x onerror=alert(1)>';
const {
  harness,
  projects: { project, second, lists },
} = useDeliveryHarness({
  configOverrides: { adminToken },
  queues: ['send', 'deliver', 'event-ingest'],
  projects: { project: 'team', second: 'starter', lists: 'team' },
});
const browser = useBrowser();
const screenshots = resolve(import.meta.dirname, '../.state/test/console-screenshots');

const vip = [
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

/** Polls what the page shows until it matches: the screens load and refresh asynchronously. */
const until = <T>(read: () => Promise<T> | T, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 15_000, ...options });

interface ConsolePage {
  page: Page;
  dialogs: string[];
  close(): Promise<void>;
}

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

async function show(page: Page, screen: ScreenName): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: screenTitles[screen], exact: true })
    .click();
  await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(screenTitles[screen]);
}

describe('console', { timeout: 120_000 }, () => {
  it('is served with a strict Content-Security-Policy, nosniff, no-cache for the page and immutable hashed assets', async () => {
    const page = await fetch(`${harness.ingress.baseUrl}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    // Its icon is inline, an image the policy allows: the browser asks for no /favicon.ico, which answered 404.
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    const script = /src="(\/console\/console-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${harness.ingress.baseUrl}${script}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('signs in with a server key; a wrong key shows the API error and nothing else; sign-out forgets the key', async () => {
    const { page, close } = await openConsole();
    try {
      await page.getByLabel('Server API key or ADMIN_TOKEN').fill('sk_wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.getByRole('alert').textContent()).toBe(
        'The API key is not valid; it may have been rotated.',
      );
      expect(await page.getByRole('navigation').count()).toBe(0);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

      await signIn(page);
      await until(() => page.locator('.facts').textContent()).toContain(project.projectId);
      expect(page.url()).not.toContain(project.apiKey);
      expect(await page.context().cookies()).toEqual([]);
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Server API key or ADMIN_TOKEN').waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      await close();
    }
  });

  it('signs in with a pasted key wrapped in invisible characters, and names a character no key holds', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page, `\u200B ${project.apiKey}\u200B\uFEFF\n`);
      await until(() => page.locator('.facts').textContent()).toContain(project.projectId);
      expect(await page.evaluate(() => sessionStorage.getItem('pushengine.console.key'))).toBe(project.apiKey);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Server API key or ADMIN_TOKEN').fill(`sk_ab\u200Bcd`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.getByRole('alert').textContent()).toBe(
        'This is not an API key: it holds U+200B, which no key holds. Copy the key again, or type it.',
      );
    } finally {
      await close();
    }
  });

  it('with ADMIN_TOKEN sees every project and switches between them', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page, adminToken);
      const switcher = page.getByLabel('Project', { exact: true });
      await switcher.selectOption(second.projectId);
      await until(() => page.locator('.facts').textContent()).toContain(second.projectId);
      await until(() => page.locator('.facts').textContent()).toContain('100 requests per minute');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Server API key or ADMIN_TOKEN').waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      await close();
    }
  });

  it('creates a template, builds a segment with a live count, sends to it and follows the funnel to completed', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Welcome');
      await page.getByLabel('Title').fill('Hi {{ device.tags.name');
      await page.getByLabel('Body').fill('Hello {{ device.tags.name | default: "friend" }}');
      // A Liquid syntax error is shown beside its field.
      await until(() => page.locator('#field-template-title-error').textContent()).toContain(
        'is not a valid Liquid template',
      );
      await page.getByLabel('Title').fill('Hi {{ device.tags.name }}');
      await page.getByLabel('Preview for device id').fill('vip-2');
      await until(() => page.getByTestId('template-preview').textContent()).toBe('Hi GraceHello Grace');
      await page.getByRole('button', { name: 'Save template' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

      await show(page, 'segments');
      await page.getByLabel('Name').fill('VIPs');
      await page.getByLabel('Tag', { exact: true }).fill('group');
      await page.getByLabel('Value', { exact: true }).fill('vip');
      await until(() => page.getByTestId('segment-count').textContent()).toBe(`${vip.length} subscribed devices`);
      await page.getByLabel('Value', { exact: true }).fill('nobody');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('0 subscribed devices');
      await page.getByLabel('Value', { exact: true }).fill('vip');
      await until(() => page.getByTestId('segment-count').textContent()).toBe(`${vip.length} subscribed devices`);
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

      // An event condition with a condition on the event's data: vip-1 bought for 12, vip-2 for 5.
      await page.getByRole('button', { name: 'New segment' }).click();
      await page.getByLabel('Kind').selectOption('event');
      await page.getByLabel('Event type').fill('purchase');
      await page.getByRole('button', { name: "Add a condition on the event's data" }).click();
      await page.getByLabel('Data field').fill('amount');
      await page.getByLabel('Operator').selectOption('gte');
      // Typed as 10, the value is the number 10 without choosing a value type: as text it matched no amount at all.
      await page.getByLabel('Value', { exact: true }).fill('10');
      await until(() => page.getByTestId('segment-sample').textContent()).toBe('vip-1');
      expect(await page.getByTestId('segment-count').textContent()).toBe('1 subscribed device');
      // Event data keeps an ISO time as a time, which milliseconds never reach: the data condition says so.
      const valueTypes = await page.getByLabel('Value type').locator('option').allTextContents();
      expect(valueTypes).toContain('Number');
      expect(valueTypes).not.toContain('Number or time (ms)');
      expect(await page.getByText(/compares as a time when typed with its zone/).count()).toBe(1);
      // Text the number type cannot read is sent as typed: as null it matched every purchase without a coupon.
      await page.getByLabel('Data field').fill('coupon');
      await page.getByLabel('Operator').selectOption('eq');
      await page.getByLabel('Value type').selectOption('number');
      await page.getByLabel('Value', { exact: true }).fill('abc');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('0 subscribed devices');
      // Saved, so that leaving the screen has nothing to ask.
      await page.getByLabel('Name').fill('Coupon abc');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

      await show(page, 'send');
      // The live count for each kind of audience: a user's subscribed devices, one device, then the segment.
      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('console-user');
      await until(() => page.getByTestId('audience-count').textContent()).toBe('1 subscribed device');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('no-such-device');
      await until(() => page.getByTestId('audience-count').textContent()).toBe(
        'Cannot count: No device "no-such-device" in this project.',
      );
      await page.getByLabel('Send to').selectOption('segment');
      // No segment is chosen for the user: sending to the first one in the list by accident is not possible.
      await until(() => page.getByTestId('audience-count').textContent()).toBe('Choose an audience.');
      await page.getByLabel('Segment', { exact: true }).selectOption({ label: 'VIPs' });
      await page.getByLabel('Content from').selectOption('template');
      await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Welcome' });
      await until(() => page.getByTestId('audience-count').textContent()).toBe(`${vip.length} subscribed devices`);
      await page.getByLabel('Preview for device id').fill('vip-1');
      await until(() => page.getByTestId('send-preview').textContent()).toBe('Hi AdaHello Ada');
      const idempotencyKey = await page.getByLabel('Idempotency-Key').inputValue();
      expect(idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
      await page.getByRole('button', { name: 'Send…', exact: true }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        `Send it to ${vip.length} subscribed devices now?`,
      );
      await page.getByRole('button', { name: 'Confirm send' }).click();
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      const notificationId = (await accepted.locator('code').textContent())!;
      // The same key within 24 hours answers the same notification: the console sent it.
      const replay = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
        key: project.apiKey,
        body: { targetType: 'device', targetIds: ['regular'], body: 'x' },
        headers: { 'idempotency-key': idempotencyKey },
      });
      expect(replay.body.data.id).toBe(notificationId);

      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${notificationId}"]`);
      await until(() => row.getByTestId('status').textContent(), { timeout: 20_000 }).toBe('completed');
      const stat = async (name: string) =>
        (await row.locator(`[data-stat="${name}"]`).textContent())!.replace(/\D+/g, ' ').trim();
      const delivered = vip.filter((device) =>
        harness.sandbox
          .deliveries(device.token)
          .some((delivery) => JSON.stringify(delivery.payload).includes(notificationId)),
      );
      expect(delivered.map((device) => device.id)).toEqual(['vip-1', 'vip-2']);
      expect(await stat('targeted')).toBe(String(vip.length));
      expect(await stat('sent')).toBe(String(delivered.length));
      expect(await stat('unsubscribed')).toBe('1');
      expect(await stat('failed')).toBe('0');
      expect(await stat('clicked')).toBe('0');
      expect(await row.textContent()).toContain('Hello {{ device.tags.name | default: "friend" }}');

      // A click reported by the SDK shows on the next read of the list.
      const click = await harness.ingress.request(
        'POST',
        `/v1/sdk/projects/${project.projectId}/devices/vip-1/events`,
        {
          key: project.clientKey,
          body: { type: '@clicked', data: { notificationId } },
        },
      );
      expect(click.status).toBe(200);
      await page.reload();
      await until(() => stat('clicked')).toBe('1');
    } finally {
      await close();
    }
  });

  it('looks up a device by userId with its history, filters recent events by deviceId and type, and adds an event type', async () => {
    const sent = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['vip-1'],
      title: 'History',
      body: 'for {{ device.userId }}',
    });
    await waitUntilCompleted(harness.ingress, project, sent);
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'devices');
      await page.getByLabel('User id').fill('console-user');
      await page.getByRole('button', { name: 'Look up' }).click();
      const card = page.locator('article[data-device="vip-1"]');
      await until(() => card.getByTestId('tags').textContent()).toBe('groupvipnameAda');
      await until(() => card.getByTestId('history').textContent()).toContain('History for console-user');
      expect(await card.textContent()).toContain('subscribed');

      await show(page, 'events');
      // Pasted with spaces around, as ids often are.
      await page.getByLabel('Device id', { exact: true }).fill('vip-1 ');
      await page.getByLabel('Event type', { exact: true }).fill(' purchase');
      await page.getByRole('button', { name: 'Filter' }).click();
      const table = page.getByTestId('events-table');
      await until(async () => (await table.locator('tbody tr').allTextContents()).length, { timeout: 10_000 }).toBe(1);
      expect(await table.locator('tbody tr').textContent()).toContain('{"amount":12}');

      await page.getByLabel('New event type').fill('console_added');
      await page.getByRole('button', { name: 'Add event type' }).click();
      await until(() => page.getByTestId('event-catalog').textContent()).toContain('console_added added by hand');
    } finally {
      await close();
    }
  });

  it('erases a device only once asked, says so, and shows none once none is left', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'forget-me', platform: 'android', token: 'console-forget', userId: 'forgetful' },
      { id: 'keep-me', platform: 'android', token: 'console-keep', userId: 'forgetful' },
    ]);
    const device = (deviceId: string) =>
      harness.ingress.request('GET', `/v1/projects/${owner.projectId}/devices/${deviceId}`, { key: owner.apiKey });
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'devices');
      // Spaces alone would read as no user filter, listing every device of the project.
      await page.getByLabel('User id').fill('   ');
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.getByText('Type a user id; spaces alone are none.').waitFor();
      expect(await page.locator('article.device').count()).toBe(0);
      await page.getByLabel('User id').fill('forgetful');
      await page.getByRole('button', { name: 'Look up' }).click();
      const card = page.locator('article[data-device="forget-me"]');
      await card.getByRole('button', { name: 'Erase device' }).click();
      await card.getByRole('button', { name: 'Keep it' }).click();
      expect((await device('forget-me')).status).toBe(200);
      await card.getByRole('button', { name: 'Erase device' }).click();
      await card.getByRole('button', { name: 'Yes, erase device' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Erased device' }).textContent()).toBe(
        'Erased device forget-me with its history and events.',
      );
      expect(await card.count()).toBe(0);
      expect((await device('forget-me')).status).toBe(404);
      // Erased meanwhile from elsewhere: asking again is done, not an error.
      await page.locator('article[data-device="keep-me"]').getByRole('button', { name: 'Erase device' }).click();
      expect(
        (
          await harness.ingress.request('DELETE', `/v1/projects/${owner.projectId}/devices/keep-me`, {
            key: owner.apiKey,
          })
        ).status,
      ).toBe(200);
      await page.getByRole('button', { name: 'Yes, erase device' }).click();
      await until(() => page.getByText('No device found.').count()).toBe(1);
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByRole('button', { name: 'Look up' }).click();
      await until(() => page.getByText('No device found.').count()).toBe(1);
      expect(await card.count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('reads the history again on a repeated look-up of the same device', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'again', platform: 'android', token: 'console-look-again', tags: { round: 'first' } },
    ]);
    const push = async (title: string) =>
      waitUntilCompleted(
        harness.ingress,
        owner,
        await sendNotification(harness.ingress, owner, {
          targetType: 'device',
          targetIds: ['again'],
          title,
          body: 'b',
        }),
      );
    await push('First push');
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'devices');
      await page.getByLabel('Look up by').selectOption('deviceId');
      await page.getByLabel('Device id').fill('again');
      await page.getByRole('button', { name: 'Look up' }).click();
      const card = page.locator('article[data-device="again"]');
      await until(() => card.getByTestId('history').textContent()).toContain('First push');
      await push('Second push');
      await page.getByRole('button', { name: 'Look up' }).click();
      await until(() => card.getByTestId('history').textContent()).toContain('Second push');
    } finally {
      await close();
    }
  });

  it('offers older history after a page that holds more than its limit, its last millisecond whole', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'burst', platform: 'android', token: 'console-burst' }]);
    // Eleven pushes answered in the same millisecond, and one before them: the first page of 10 holds the eleven.
    const burstAt = Date.now() - 60_000;
    await harness.ingress.context.models.History.insertMany(
      Array.from({ length: 12 }, (_, index) => ({
        projectId: owner.projectId,
        deviceId: 'burst',
        notificationId: `burst-${index}`,
        notification: {
          id: `burst-${index}`,
          createdAt: new Date(burstAt),
          title: null,
          body: `push ${index}`,
          url: null,
          imageUrl: null,
        },
        sentAt: new Date(index === 0 ? burstAt - 1000 : burstAt),
      })),
    );
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'devices');
      await page.getByLabel('Look up by').selectOption('deviceId');
      await page.getByLabel('Device id').fill('burst');
      await page.getByRole('button', { name: 'Look up' }).click();
      const history = page.locator('article[data-device="burst"]').getByTestId('history').locator('li');
      await until(() => history.count()).toBe(11);
      await page.getByRole('button', { name: 'Older history' }).click();
      await until(() => history.count()).toBe(12);
      expect(await history.last().textContent()).toContain('push 0');
    } finally {
      await close();
    }
  });

  it('reads older events page after page, to the first one', async () => {
    const owner = await harness.ingress.createProject('team');
    const reported = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/events`, {
      key: owner.apiKey,
      body: {
        events: Array.from({ length: 120 }, (_, index) => ({
          type: 'seen',
          subjectType: 'user',
          subjectId: 'many',
          data: { index },
        })),
      },
    });
    expect(reported.body.data.success).toBe(120);
    const stored = () =>
      harness.ingress.request('GET', `/v1/projects/${owner.projectId}/events?limit=500`, { key: owner.apiKey });
    await until(async () => (await stored()).body.data.length).toBe(120);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'events');
      const rows = page.getByTestId('events-table').locator('tbody tr');
      await until(() => rows.count()).toBe(50);
      const older = page.getByRole('button', { name: 'Older events' });
      await older.click();
      await until(() => rows.count()).toBe(100);
      await older.click();
      await until(() => rows.count()).toBe(120);
      expect(await older.count()).toBe(0);
      const data = await rows.locator('code.data').allTextContents();
      expect(new Set(data).size).toBe(120);
    } finally {
      await close();
    }
  });

  it('reads the events and the event catalog again on each Filter, also with the filters unchanged', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'eventful', platform: 'android', token: 'console-eventful' }]);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'events');
      await page.getByLabel('Event type', { exact: true }).fill('late_arrival');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No event matches.').waitFor();
      const reported = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/events`, {
        key: owner.apiKey,
        body: { events: [{ type: 'late_arrival', subjectType: 'device', subjectId: 'eventful', data: {} }] },
      });
      expect(reported.body.data.success).toBe(1);
      // Stored, and its type in the catalog, which the worker writes just after the events.
      const listed = async (path: string) =>
        JSON.stringify(
          (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}${path}`, { key: owner.apiKey })).body
            .data,
        );
      await until(() => listed('/events?type=late_arrival')).toContain('late_arrival');
      await until(() => listed('/event-types')).toContain('late_arrival');
      await page.getByRole('button', { name: 'Filter' }).click();
      await until(() => page.getByTestId('events-table').locator('tbody tr').count()).toBe(1);
      await until(() => page.getByTestId('event-catalog').textContent()).toContain('late_arrival seen in events');
    } finally {
      await close();
    }
  });

  it('wraps a long unbroken title in the history instead of widening the page, and tells the tag "30" from the number 30', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      {
        id: 'wide',
        platform: 'android',
        token: 'console-wide',
        tags: { age: 30, code: '30', name: 'Ada', none: 'null', [`k${'e'.repeat(63)}`]: 'v'.repeat(1024) },
      },
    ]);
    const title = 'W'.repeat(1000);
    await waitUntilCompleted(
      harness.ingress,
      owner,
      await sendNotification(harness.ingress, owner, { targetType: 'device', targetIds: ['wide'], title, body: 'b' }),
    );
    for (const width of [1280, 390]) {
      const { page, close } = await openConsole(width);
      try {
        await signIn(page, owner.apiKey);
        await show(page, 'devices');
        await page.getByLabel('Look up by').selectOption('deviceId');
        await page.getByLabel('Device id').fill('wide');
        await page.getByRole('button', { name: 'Look up' }).click();
        const card = page.locator('article[data-device="wide"]');
        await until(() => card.getByTestId('history').textContent()).toContain(title);
        expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(width);
        const tag = (key: string) =>
          card
            .getByTestId('tags')
            .locator('div')
            .filter({ has: page.getByText(key, { exact: true }) })
            .locator('dd');
        expect(await tag('age').textContent()).toBe('30');
        expect(await tag('code').textContent()).toBe('"30"');
        expect(await tag('name').textContent()).toBe('Ada');
        expect(await tag('none').textContent()).toBe('"null"');
        // Beside its value of 1,024 characters, the 64-character key keeps half the row (it was one letter a line).
        const longKey = card.getByTestId('tags').getByText(`k${'e'.repeat(63)}`, { exact: true });
        const share = await longKey.evaluate((dt) => dt.clientWidth / dt.parentElement!.clientWidth);
        expect(share).toBeGreaterThan(0.45);
        // The notifications table with the same title in a cell.
        await show(page, 'notifications');
        await page.locator('tbody tr[data-notification]').waitFor();
        expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(width);
      } finally {
        await close();
      }
    }
  });

  it('is usable from the keyboard: Tab reaches the screens, Enter opens one and puts the focus on its heading', async () => {
    const { page, close } = await openConsole();
    try {
      await page.keyboard.press('Tab');
      await page.keyboard.type(project.apiKey);
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      const hasFocus = (locator: Locator) =>
        locator.evaluate((element) => element === element.ownerDocument.activeElement);
      const link = page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Events', exact: true });
      for (let presses = 0; presses < 20 && !(await hasFocus(link)); presses++) await page.keyboard.press('Tab');
      expect(await hasFocus(link)).toBe(true);
      await page.keyboard.press('Enter');
      await until(() => hasFocus(page.getByRole('heading', { level: 1, name: 'Events' }))).toBe(true);
    } finally {
      await close();
    }
  });

  it('skips to the content by moving the focus only: the screen and its unsaved edits stay', async () => {
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Not saved');
      const skip = page.getByText('Skip to content');
      await skip.focus();
      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { level: 1 });
      await until(() => heading.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      expect(await heading.textContent()).toBe('Templates');
      expect(new URL(page.url()).hash).toBe('#/templates');
      expect(await page.getByLabel('Name').inputValue()).toBe('Not saved');
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps every notification on screen when a new one pushes a row out of the newest page after older ones were loaded', async () => {
    const owner = await harness.ingress.createProject('team');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = () =>
      sendNotification(harness.ingress, owner, { targetType: 'userId', targetIds: ['nobody'], body: 'later', sendAt });
    const ids: string[] = [];
    for (let count = 0; count < 21; count += 1) ids.push(await scheduled());
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      const rows = page.locator('tbody tr[data-notification]');
      await until(() => rows.count()).toBe(20);
      await page.getByRole('button', { name: 'Load older notifications' }).click();
      await until(() => rows.count()).toBe(21);
      // Just created, the scheduled sends keep the newest page read every 2 s.
      ids.push(await scheduled());
      await until(() => rows.evaluateAll((cells) => cells.map((row) => row.getAttribute('data-notification')))).toEqual(
        [...ids].reverse(),
      );
    } finally {
      await close();
    }
  });

  it('keeps dates, statuses and the funnel whole beside a long unbroken message', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'wide', platform: 'android', token: 'console-wide' }]);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['wide'],
      body: 'x'.repeat(3000),
    });
    await waitUntilCompleted(harness.ingress, owner, id);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${id}"]`);
      await until(() => row.getByTestId('status').textContent()).toBe('completed');
      // How many lines a cell's text takes.
      const lines = (locator: Locator) =>
        locator.evaluate((cell) => {
          const range = cell.ownerDocument.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
      expect(await lines(row.locator('td.when'))).toBe(1);
      expect(await lines(row.getByTestId('status'))).toBe(1);
      const funnelTops = await row
        .locator('[data-stat]')
        .evaluateAll((items) => [
          ...new Set(items.slice(0, 3).map((item) => Math.round(item.getBoundingClientRect().top))),
        ]);
      expect(funnelTops).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('reads every notification created between two refreshes, even more than a page of them', async () => {
    const owner = await harness.ingress.createProject('team');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = () =>
      sendNotification(harness.ingress, owner, { targetType: 'userId', targetIds: ['nobody'], body: 'later', sendAt });
    for (let count = 0; count < 3; count += 1) await scheduled();
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      const rows = page.locator('tbody tr[data-notification]');
      await until(() => rows.count()).toBe(3);
      // 80 at once, within a few 2 s refreshes: more than a page of 20 arrives between two of them.
      await Promise.all(Array.from({ length: 80 }, scheduled));
      const all = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications?limit=500`, {
        key: owner.apiKey,
      });
      const newestFirst = all.body.data.map((notification: { id: string }) => notification.id);
      expect(newestFirst).toHaveLength(83);
      await until(() => rows.evaluateAll((cells) => cells.map((row) => row.getAttribute('data-notification')))).toEqual(
        newestFirst,
      );
    } finally {
      await close();
    }
  });

  it('sends only once the send is confirmed: Enter in a field asks, an audience of nobody cannot be confirmed, and an edit hides the notice of the last send', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'confirm-me', platform: 'android', token: 'console-confirm-me', userId: 'confirming' },
    ]);
    const sent = async () =>
      (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications`, { key: owner.apiKey }))
        .body.data.length;
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Body').fill('Confirmed');
      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('nobody-here');
      await until(() => page.getByTestId('audience-count').textContent()).toBe('0 subscribed devices');
      await page.getByLabel('Title').press('Enter');
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'No subscribed device would get it: choose another audience.',
      );
      // The question has the focus on Cancel: Escape answers it so.
      await page.keyboard.press('Escape');
      expect(await page.getByTestId('send-confirmation').count()).toBe(0);
      await page.getByLabel('Title').press('Enter');
      expect(await page.getByRole('button', { name: 'Confirm send' }).isDisabled()).toBe(true);

      await page.getByLabel('User id').fill('confirming');
      // The audience changed: the question is asked again, not carried over.
      expect(await page.getByTestId('send-confirmation').count()).toBe(0);
      // Asked at once, before the new audience is counted, it never answers with the count of the one before.
      await page.getByLabel('Title').press('Enter');
      expect(['Counting the audience…', 'Send it to 1 subscribed device now?']).toContain(
        await page.getByTestId('send-confirmation').textContent(),
      );
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'Send it to 1 subscribed device now?',
      );
      expect(await sent()).toBe(0);
      await page.getByRole('button', { name: 'Confirm send' }).click();
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      await accepted.waitFor();
      expect(await sent()).toBe(1);
      await page.getByLabel('Body').fill('Confirmed, edited');
      await until(() => accepted.count()).toBe(0);
      // The message as sent is no unsaved work, whatever the audience becomes: leaving asks nothing.
      await page.getByLabel('Body').fill('Confirmed');
      await page.getByLabel('User id').fill('someone-else');
      await show(page, 'templates');
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });

  it("schedules a send at a time of the browser's zone, and cancels it from the Notifications screen", async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'plan-me', platform: 'android', token: 'console-plan-me', userId: 'planner' },
    ]);
    // Tomorrow, to the minute, typed as Seoul's wall clock (UTC+9, no daylight saving).
    const sendAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 24 * 60 * 60 * 1000);
    const seoulWallClock = new Date(sendAt.getTime() + 9 * 60 * 60 * 1000).toISOString().slice(0, 16);
    const { page, close } = await openConsole(1280, 'Asia/Seoul');
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Body').fill('Tomorrow');
      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('planner');
      await page.getByLabel('When').selectOption('later');
      expect(await page.getByRole('button', { name: 'Schedule…' }).isDisabled()).toBe(true);
      // A mistyped date in the past would be sent at once: it cannot be confirmed as a schedule.
      await page.getByLabel('Send at').fill('2020-01-02T09:30');
      await page.getByRole('button', { name: 'Schedule…' }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'That time has passed: choose a later one, or send it now.',
      );
      expect(await page.getByRole('button', { name: 'Confirm schedule' }).isDisabled()).toBe(true);
      await page.getByLabel('Send at').fill(seoulWallClock);
      await page.getByRole('button', { name: 'Schedule…' }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toMatch(
        /^Schedule it for .+\? The audience is read again then; it has 1 subscribed device now\.$/,
      );
      await page.getByRole('button', { name: 'Confirm schedule' }).click();
      const scheduled = page.getByRole('status').filter({ hasText: 'Scheduled for' });
      const id = (await scheduled.locator('code').textContent())!;
      const stored = await harness.ingress.context.models.Notification.findById(id).lean();
      expect(stored?.sendAt?.toISOString()).toBe(sendAt.toISOString());
      // Made two minutes old, a scheduled send the list reads again only every 30 s: the cancel's answer must show.
      await harness.ingress.context.models.Notification.collection.updateOne(
        { _id: id as never },
        { $set: { createdAt: new Date(Date.now() - 120_000) } },
      );

      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${id}"]`);
      await until(() => row.getByTestId('status').textContent()).toBe('queued');
      await row.getByRole('button', { name: 'Cancel send' }).click();
      await row.getByRole('button', { name: 'Yes, cancel send' }).click();
      await until(() => row.getByTestId('status').textContent()).toBe('canceled');
      expect(await row.getByRole('button', { name: 'Cancel send' }).count()).toBe(0);
      const read = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications/${id}`, {
        key: owner.apiKey,
      });
      expect(read.body.data.status).toBe('canceled');
    } finally {
      await close();
    }
  });

  it('says why a send cannot be canceled once it has started, and shows where it stands', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'started', platform: 'android', token: 'console-started' }]);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['started'],
      body: 'Next week',
      sendAt: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString(),
    });
    await harness.ingress.context.models.Notification.collection.updateOne(
      { _id: id as never },
      { $set: { createdAt: new Date(Date.now() - 120_000) } },
    );
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${id}"]`);
      await row.getByRole('button', { name: 'Cancel send' }).click();
      // A worker takes the send while the question is on screen.
      await harness.ingress.context.models.Notification.updateOne({ _id: id }, { $set: { status: 'sending' } });
      await row.getByRole('button', { name: 'Yes, cancel send' }).click();
      await until(() => page.getByRole('alert').textContent()).toContain(
        'The notification is sending; only a queued or scheduled send can be canceled.',
      );
      // Above the list, where it is seen whatever the list's length.
      const alertBottom = (await page.getByRole('alert').boundingBox())!;
      const listTop = (await page.locator('table.list').boundingBox())!;
      expect(alertBottom.y + alertBottom.height).toBeLessThanOrEqual(listTop.y);
      await until(() => row.getByTestId('status').textContent()).toBe('sending');
    } finally {
      await close();
    }
  });

  it('after sends whose answers were lost, retries each message with its own Idempotency-Key, and an edited one with a new key', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'lost-answer', platform: 'android', token: 'console-lost' }]);
    const { page, close } = await openConsole();
    try {
      const keys: string[] = [];
      await page.route(`${harness.ingress.baseUrl}/v1/projects/*/notifications`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        keys.push(route.request().headers()['idempotency-key']!);
        if (keys.length > 3) return route.continue();
        // The ingress takes the send; its answer never reaches the console.
        await route.fetch();
        await route.abort('connectionreset');
      });
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('lost-answer');
      const lost = page.getByRole('alert').filter({ hasText: 'could not be reached' });
      const sendLosingAnswer = async (body: string) => {
        await page.getByLabel('Body').fill(body);
        await page.getByRole('button', { name: 'Send…', exact: true }).click();
        await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
          'Send it to 1 subscribed device now?',
        );
        const tried = keys.length;
        await page.getByRole('button', { name: 'Confirm send' }).click();
        await until(() => keys.length).toBe(tried + 1);
        await lost.waitFor();
      };
      await sendLosingAnswer('Frist');
      await sendLosingAnswer('Frist');
      // The typo fixed: another send, which the first one's key would answer as the first.
      await sendLosingAnswer('First');
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      const sendAnswered = async (body: string) => {
        await page.getByLabel('Body').fill(body);
        await page.getByRole('button', { name: 'Send…', exact: true }).click();
        await page.getByRole('button', { name: 'Confirm send' }).click();
        await accepted.waitFor();
      };
      // A key typed by hand for another message is the one sent.
      await page.getByLabel('Idempotency-Key').fill('typed-by-hand-1');
      await sendAnswered('Third');
      // Back to the first message: a retry of that send, which was accepted while its answers were lost.
      await sendAnswered('Frist');
      expect(keys).toEqual([keys[0], keys[0], expect.not.stringMatching(keys[0]!), 'typed-by-hand-1', keys[0]]);
      const bodies = (
        await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications`, { key: owner.apiKey })
      ).body.data.map((notification: { body: string }) => notification.body);
      expect(bodies.sort()).toEqual(['First', 'Frist', 'Third']);
    } finally {
      await close();
    }
  });

  it("says why an audience cannot be counted, with what each field's detail says", async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'send');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('not a device id');
      await until(() => page.getByTestId('audience-count').textContent()).toBe(
        'Cannot count: The request is not valid; see details for each field. deviceId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, other than . and ..',
      );
    } finally {
      await close();
    }
  });

  it('keeps the list on screen when a refresh is rate limited, and shows why a list a form needs did not load', async () => {
    const owner = await harness.ingress.createProject('starter');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const ids = [];
    for (const body of ['first', 'second'])
      ids.push(
        await sendNotification(harness.ingress, owner, { targetType: 'userId', targetIds: ['x'], body, sendAt }),
      );
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      const rows = page.locator('tbody tr[data-notification]');
      await until(() => rows.count()).toBe(2);
      // The starter plan's 100 requests a minute, spent: the screen's next refresh (every 2 s while a send was just
      // queued) is refused.
      const spendTheMinute = async () => {
        for (let answer = 200; answer !== 429; )
          answer = (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}`, { key: owner.apiKey }))
            .status;
      };
      await spendTheMinute();
      const refused = page
        .getByRole('alert')
        .filter({ hasText: 'The starter plan allows 100 API requests per minute' });
      await refused.waitFor();
      expect(await rows.evaluateAll((cells) => cells.map((row) => row.getAttribute('data-notification')))).toEqual(
        [...ids].reverse(),
      );
      await show(page, 'send');
      await page.getByLabel('Send to').selectOption('segment');
      await refused.first().waitFor();
      expect(await page.getByText('Loading segments…').count()).toBe(0);

      // Reloaded while limited, the console cannot read the projects: it offers another try, not only a sign-out.
      // The window slides, so it is filled again first.
      await spendTheMinute();
      await page.reload();
      await refused.waitFor();
      const { redis, config } = harness.ingress.context;
      await redis.del(redisKeys.rateLimit(config.queuePrefix, owner.projectId));
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    } finally {
      await close();
    }
  });

  it('lists and offers every template, past the 100 a list route answers without a limit', async () => {
    const owner = await harness.ingress.createProject('team');
    const names = Array.from({ length: 101 }, (_, index) => `Template ${String(index).padStart(3, '0')}`);
    // One after another: the oldest, the one a first page of 100 leaves out, is known.
    for (const name of names)
      expect(
        (
          await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/templates`, {
            key: owner.apiKey,
            body: { name, body: name },
          })
        ).status,
      ).toBe(200);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      const list = page.getByRole('region', { name: 'Templates' }).getByRole('listitem');
      await until(() => list.count()).toBe(101);
      await page.getByRole('button', { name: 'Template 000' }).click();
      await until(() => page.getByLabel('Body').inputValue()).toBe('Template 000');

      await show(page, 'send');
      await page.getByLabel('Content from').selectOption('template');
      const picker = page.getByLabel('Template', { exact: true });
      await until(() => picker.locator('option').count()).toBe(101);
      await picker.selectOption({ label: 'Template 000' });
    } finally {
      await close();
    }
  });

  it('deletes a template only once asked, then says it was deleted rather than saved', async () => {
    const owner = await harness.ingress.createProject('team');
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Short-lived');
      await page.getByLabel('Body').fill('Soon gone');
      await page.getByRole('button', { name: 'Save template' }).click();
      const saved = page.getByRole('status').filter({ hasText: 'Saved' });
      const id = (await saved.locator('code').textContent())!;
      const stored = async () =>
        (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/templates`, { key: owner.apiKey })).body
          .data.length;
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      // The question takes the focus on its safe answer: Enter keeps the template, and so does Escape; either way the
      // focus goes back to the button that asked.
      await page.keyboard.press('Enter');
      const remove = page.getByRole('button', { name: 'Delete', exact: true });
      const focused = (locator: Locator) =>
        locator.evaluate((element) => element === element.ownerDocument.activeElement);
      expect(await focused(remove)).toBe(true);
      await remove.click();
      await page.keyboard.press('Escape');
      expect(await page.getByRole('button', { name: 'Yes, delete' }).count()).toBe(0);
      expect(await focused(remove)).toBe(true);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      expect(await stored()).toBe(1);
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Deleted' }).textContent()).toBe(`Deleted ${id}.`);
      expect(await saved.count()).toBe(0);
      expect(await stored()).toBe(0);
    } finally {
      await close();
    }
  });

  it('asks before an editor drops edits not saved, and only then', async () => {
    const owner = await harness.ingress.createProject('team');
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Kept');
      await page.getByLabel('Body').fill('Saved body');
      await page.getByRole('button', { name: 'Save template' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await page.getByLabel('Title').fill('Not saved yet');
      // The question is dismissed here: the edit stays.
      await page.getByRole('button', { name: 'New template' }).click();
      expect(dialogs).toEqual(['Discard the changes you have not saved?']);
      expect(await page.getByLabel('Title').inputValue()).toBe('Not saved yet');
      // Another screen from the menu, or the browser's back button, asks the same; dismissed, the edit stays.
      const screenHeading = () => page.getByRole('heading', { level: 1 }).textContent();
      await page.goBack();
      await until(() => dialogs.length).toBe(2);
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Segments' }).click();
      await until(() => dialogs.length).toBe(3);
      expect(await screenHeading()).toBe('Templates');
      expect(page.url()).toMatch(/#templates$/);
      expect(await page.getByLabel('Title').inputValue()).toBe('Not saved yet');
      await page.getByRole('button', { name: 'Save template' }).click();
      // Once saved (the API has it, and the screen its answer), there is nothing to lose.
      await until(
        async () =>
          (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/templates`, { key: owner.apiKey }))
            .body.data[0]?.title,
      ).toBe('Not saved yet');
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await page.getByRole('button', { name: 'New template' }).click();
      await until(() => page.getByLabel('Name').inputValue()).toBe('');
      expect(dialogs).toHaveLength(3);

      await show(page, 'segments');
      await page.getByLabel('Name').fill('Scores');
      await page.getByLabel('Tag', { exact: true }).fill('score');
      await page.getByLabel('Operator').selectOption('gte');
      await page.getByLabel('Value', { exact: true }).fill('10');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      // Saved as the number 10, shown again as it was typed: nothing to lose, nothing asked.
      await page.getByRole('button', { name: 'New segment' }).click();
      await until(() => page.getByLabel('Name').inputValue()).toBe('');
      expect(dialogs).toHaveLength(3);
    } finally {
      await close();
    }
  });

  it('asks before a project switch, a sign-out, a closing tab or another screen drops a message or a journey not sent', async () => {
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, adminToken);
      const switcher = page.getByLabel('Project', { exact: true });
      const shownProject = await switcher.inputValue();
      await show(page, 'send');
      await page.getByLabel('Body').fill('A message typed, not sent');
      // Each question is dismissed: the message stays, and so does the project.
      await switcher.selectOption(second.projectId);
      expect(dialogs).toEqual(['Discard the changes you have not saved?']);
      expect(await switcher.inputValue()).toBe(shownProject);
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(dialogs).toHaveLength(2);
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Templates' }).click();
      await until(() => dialogs.length).toBe(3);
      await page.close({ runBeforeUnload: true });
      await until(() => dialogs.length).toBe(4);
      expect(dialogs[3]).toBe('');
      expect(page.isClosed()).toBe(false);
      expect(await page.getByLabel('Body').inputValue()).toBe('A message typed, not sent');

      await page.getByLabel('Body').fill('');
      await show(page, 'journeys');
      expect(dialogs).toHaveLength(4);
      await page.getByLabel('Name').fill('Welcome series');
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Events' }).click();
      await until(() => dialogs.length).toBe(5);
      expect(await page.getByLabel('Name').inputValue()).toBe('Welcome series');
    } finally {
      await close();
    }
  });

  it('refuses an event condition whose count is left blank, which was saved as "at least 0 times": every device', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'never-bought', platform: 'android', token: 'console-nb' }]);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'segments');
      await page.getByLabel('Name').fill('Bought three times');
      await page.getByLabel('Kind').selectOption('event');
      await page.getByLabel('Event type').fill('purchase');
      await page.getByLabel('Times').fill('3');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('0 subscribed devices');
      await page.getByLabel('Times').fill('');
      // The live count says why it cannot count, where it counted every device.
      await until(() => page.getByRole('alert').textContent()).toContain(
        '/conditions/0/count/value must be a whole number, 0 or more',
      );
      expect(await page.getByTestId('segment-count').count()).toBe(0);
      await page.getByRole('button', { name: 'Save segment' }).click();
      expect(
        await page
          .getByLabel('Times')
          .evaluate((input) => (input as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing),
      ).toBe(true);
      const saved = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/segments`, {
        key: owner.apiKey,
      });
      expect(saved.body.data).toEqual([]);
    } finally {
      await close();
    }
  });

  it("names a preview device id the API refuses beside its field, not as the template's Liquid", async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'templates');
      await page.getByLabel('Body').fill('Hello {{ device.tags.name }}');
      await page.getByLabel('Preview for device id').fill('user@example.com');
      const deviceField = page.getByLabel('Preview for device id');
      await until(() => deviceField.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('No preview; see the fields marked.').count()).toBe(0);
      expect(await page.getByLabel('Body').getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByText('must be 1 to 128 characters of A-Z a-z 0-9 . _ : -').count()).toBe(1);
      // A body that renders blank is no syntax error: the field says so, as its delivery would.
      await page.getByLabel('Preview for device id').fill('');
      await page.getByLabel('Body').fill('{{ data.nothing }}');
      await until(() => page.getByLabel('Body').getAttribute('aria-invalid')).toBe('true');
      expect(
        await page.getByText("the body renders blank with this device's variables; give it a default").count(),
      ).toBe(1);
      expect(await page.getByRole('alert').filter({ hasText: 'No preview; see the fields marked.' }).count()).toBe(1);
    } finally {
      await close();
    }
  });

  it('opens and saves a segment whose list values hold commas, numeric-looking text and null as they were saved', async () => {
    await registerDevices(harness.ingress, lists, [
      {
        id: 'capital',
        platform: 'android',
        token: 'console-capital',
        tags: { city: 'Washington, D.C.', zip: '02134' },
      },
      { id: 'boston', platform: 'android', token: 'console-boston', tags: { city: 'Boston', zip: 2134 } },
    ]);
    const conditions = [
      { tag: 'city', op: 'in', value: ['Washington, D.C.', ' Springfield '] },
      { tag: 'zip', op: 'in', value: ['02134', 2134] },
      { tag: 'note', op: 'ne', value: 'null' },
      {
        event: 'purchase',
        withinDays: 7,
        count: { op: 'lt', value: 1 },
        where: [{ field: 'coupon', op: 'eq', value: null }],
      },
    ];
    const segmentsPath = `/v1/projects/${lists.projectId}/segments`;
    const created = await harness.ingress.request('POST', segmentsPath, {
      key: lists.apiKey,
      body: { name: 'Capital', match: 'all', conditions },
    });
    expect(created.status).toBe(200);
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, lists.apiKey);
      await show(page, 'segments');
      await page.getByRole('button', { name: 'Capital' }).click();
      await until(() => page.getByLabel('Name').inputValue()).toBe('Capital');
      await until(() => page.getByTestId('segment-count').textContent()).toBe('1 subscribed device');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const saved = await harness.ingress.request('GET', `${segmentsPath}/${created.body.data.id}`, {
        key: lists.apiKey,
      });
      expect(saved.body.data.conditions).toEqual(conditions);
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });

  it("names a journey's template, and says when it was deleted, where it showed the template's id", async () => {
    const owner = await harness.ingress.createProject('team');
    const base = `/v1/projects/${owner.projectId}`;
    const post = async (path: string, body: object) =>
      (await harness.ingress.request('POST', `${base}${path}`, { key: owner.apiKey, body })).body.data;
    const kept = await post('/templates', { name: 'Welcome', body: 'Hi' });
    const gone = await post('/templates', { name: 'Old offer', body: 'Gone' });
    for (const [name, template] of [
      ['Greet', kept],
      ['Offer', gone],
    ])
      await post('/journeys', { name, trigger: { event: 'signup' }, delaySeconds: 0, templateId: template.id });
    await harness.ingress.request('DELETE', `${base}/templates/${gone.id}`, { key: owner.apiKey });
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'journeys');
      const message = (name: string) => page.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2);
      await until(() => message('Greet').textContent()).toBe('template “Welcome”');
      expect(await message('Offer').textContent()).toBe(`template ${gone.id} (deleted: sends nothing)`);
    } finally {
      await close();
    }
  });

  it('creates a journey, pauses, resumes and deletes it', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'journeys');
      await page.getByLabel('Name').fill('Thank buyers');
      await page.getByLabel('Trigger event type').fill('purchase');
      await page.getByLabel('Body').fill('Thanks for {{ entry_event.data.amount }}');
      await page.getByRole('button', { name: 'Create journey' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Created journey' }).textContent()).toBe(
        'Created journey Thank buyers.',
      );
      // The form is cleared, so that Enter again does not create a second journey.
      expect(await page.getByLabel('Name').inputValue()).toBe('');
      expect(await page.getByLabel('Body').inputValue()).toBe('');
      const row = page.getByRole('row').filter({ hasText: 'Thank buyers' });
      await until(() => row.getByRole('cell').nth(3).textContent()).toBe('active');
      await row.getByRole('button', { name: 'Pause Thank buyers' }).click();
      await until(() => row.getByRole('cell').nth(3).textContent()).toBe('paused');
      const [journey] = (
        await harness.ingress.request('GET', `/v1/projects/${project.projectId}/journeys`, { key: project.apiKey })
      ).body.data;
      expect(journey).toMatchObject({ name: 'Thank buyers', trigger: { event: 'purchase' }, active: false });
      await row.getByRole('button', { name: 'Resume Thank buyers' }).click();
      await until(() => row.getByRole('cell').nth(3).textContent()).toBe('active');
      // Deleting asks first: keeping it changes nothing.
      await row.getByRole('button', { name: 'Delete Thank buyers' }).click();
      await row.getByRole('button', { name: 'Keep it' }).click();
      await row.getByRole('button', { name: 'Delete Thank buyers' }).click();
      expect(await row.getByText('Its sends waiting for their delay are canceled.').count()).toBe(1);
      await row.getByRole('button', { name: 'Yes, delete Thank buyers' }).click();
      await until(() => row.count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('shows hostile tag values and event data as text, and no script of theirs runs', async () => {
    const { page, dialogs, close } = await openConsole(390);
    try {
      await signIn(page);
      await show(page, 'devices');
      await page.getByLabel('Look up by').selectOption('deviceId');
      await page.getByLabel('Device id').fill('hostile');
      await page.getByRole('button', { name: 'Look up' }).click();
      await until(() => page.locator('article[data-device="hostile"]').getByTestId('tags').textContent()).toBe(
        `bio${hostileTag}`,
      );
      await show(page, 'events');
      await until(() => page.getByTestId('events-table').textContent(), { timeout: 10_000 }).toContain(hostileTag);
      expect(await page.locator('main img').count()).toBe(0);
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });

  it('has no serious or critical accessibility violation on any screen, at 1280 and 390 pixels wide', async () => {
    for (const width of [1280, 390]) {
      const { page, close } = await openConsole(width);
      try {
        const scan = async (name: string) => {
          await until(() => page.locator('[role=status]').filter({ hasText: 'Loading' }).count()).toBe(0);
          const results = await new AxeBuilder({ page }).analyze();
          const blocking = results.violations.filter(
            (violation) => violation.impact === 'serious' || violation.impact === 'critical',
          );
          expect(
            blocking.map(
              (violation) => `${name}: ${violation.id} ${violation.nodes.map((node) => node.target).join(' ')}`,
            ),
          ).toEqual([]);
          await page.screenshot({ path: resolve(screenshots, `${name}-${width}.png`), fullPage: true });
        };
        await scan('sign-in');
        await signIn(page);
        for (const name of Object.keys(screenTitles) as ScreenName[]) {
          await show(page, name);
          await scan(name);
        }
        // The devices screen again with a user's devices, their tags and history on it.
        await page.getByLabel('User id').fill('console-user');
        await page.getByRole('button', { name: 'Look up' }).click();
        await page.locator('article[data-device="vip-1"]').waitFor();
        await scan('devices-found');
      } finally {
        await close();
      }
    }
  });
});
