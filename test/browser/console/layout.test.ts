import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { show, until, useConsole } from '../../support/console.ts';
import { screenProblems } from '../../support/console-checks.ts';
import { screenTitles, type ScreenName } from '../../../web/console/screen-titles.ts';

const { harness, project, openConsole, signIn } = useConsole();

/** What a marketer's project holds after a week: names of several words, a send with a failure, one of each item. */
let notificationId = '';
beforeAll(async () => {
  const request = async (path: string, body: unknown) => {
    const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}${path}`, {
      key: project.apiKey,
      body,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { id: string };
  };
  await request('/templates', {
    name: 'Winter sale reminder',
    title: 'Hi {{ device.tags.name }}',
    body: 'Sale ends soon',
  });
  const segment = await request('/segments', {
    name: 'Very important people',
    match: 'all',
    conditions: [{ tag: 'group', op: 'eq', value: 'vip' }],
  });
  await request('/in-app-messages', {
    name: 'Winter sale popup',
    status: 'active',
    layout: 'modal',
    title: 'Winter sale',
    body: 'Everything twenty percent off this week',
    buttons: [
      { id: 'go', text: 'Open the shop', action: 'url', url: 'https://shop.example/sale' },
      { id: 'later', text: 'Later', action: 'close' },
    ],
    trigger: { event: 'app_open' },
    frequency: 'always',
  });
  await request('/journeys', {
    name: 'Abandoned cart',
    trigger: { event: 'added_to_cart' },
    body: 'Your cart misses you',
  });
  await request('/webhooks', { url: 'https://hooks.example/pushengine', events: ['message.failed'] });
  notificationId = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segment.id],
    title: 'Winter sale',
    body: 'Everything twenty percent off this week',
  });
  await waitUntilCompleted(harness.ingress, project, notificationId);
});

const check = (page: Page, name: string, width: number) => screenProblems(page, `layout-${name}-${width}`);

describe('the console layout', { timeout: 240_000 }, () => {
  for (const width of [1280, 390]) {
    it(`holds on every screen at ${width} px: nothing wider than the window, nothing overlapping, no word broken, axe clean`, async () => {
      const { page, close } = await openConsole(width);
      try {
        const problems = await check(page, 'sign-in', width);
        await signIn(page);
        for (const name of Object.keys(screenTitles) as ScreenName[]) {
          await show(page, name);
          problems.push(...(await check(page, name, width)));
        }
        await page.goto(`${harness.ingress.baseUrl}/console#/notifications/${notificationId}`);
        await page.getByTestId('funnel').waitFor();
        problems.push(...(await check(page, 'notification-page', width)));
        await page.goto(`${harness.ingress.baseUrl}/console#/devices/vip-1`);
        await page.locator('article[data-device="vip-1"]').getByTestId('recent-events').waitFor();
        problems.push(...(await check(page, 'device-profile', width)));
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }

  it("names each in-app message's frequency in the editor's words, not the API's", async () => {
    const { page, close } = await openConsole(390);
    try {
      await signIn(page);
      await show(page, 'in-app-messages');
      const row = page.locator('tbody tr', { hasText: 'Winter sale popup' });
      await until(() => row.locator('td[data-label="Frequency"]').textContent()).toBe('Each time the trigger fires');
    } finally {
      await close();
    }
  });

  it('shows a one-row menu on a phone, and headings take the focus without a ring', async () => {
    const { page, close } = await openConsole(390);
    try {
      await signIn(page);
      const header = await page.locator('header.top').boundingBox();
      expect(header!.height).toBeLessThan(60);
      await show(page, 'devices');
      const heading = page.getByRole('heading', { level: 1, name: 'Devices' });
      await until(() => heading.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      expect(
        await heading.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).outlineStyle),
      ).toBe('none');
    } finally {
      await close();
    }
  });
});
