import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { registerDevices, sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';
import { redisKeys } from '../../../src/infra/redis-keys.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Notifications screen", { timeout: 120_000 }, () => {
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
      // How many lines an element's text takes (its text only: the box of a block inside starts above its text).
      const lines = (locator: Locator) =>
        locator.evaluate((cell) => {
          const range = cell.ownerDocument.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
      expect(await lines(row.locator('td.when .cell'))).toBe(1);
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

  it('says why a send cannot be canceled once it has completed, and shows where it stands', async () => {
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
      // The send completes while the question is on screen.
      await harness.ingress.context.models.Notification.updateOne({ _id: id }, { $set: { status: 'completed' } });
      await row.getByRole('button', { name: 'Yes, cancel send' }).click();
      await until(() => page.getByRole('alert').textContent()).toContain(
        'The notification is completed; only a queued, scheduled or sending one can be canceled.',
      );
      // Above the list, where it is seen whatever the list's length.
      const alertBottom = (await page.getByRole('alert').boundingBox())!;
      const listTop = (await page.locator('table.list').boundingBox())!;
      expect(alertBottom.y + alertBottom.height).toBeLessThanOrEqual(listTop.y);
      await until(() => row.getByTestId('status').textContent()).toBe('completed');
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
      // The first refusal there may be another list's (the send screen loads several at once): the segments' answer ends
      // their loading too.
      await until(() => page.getByText('Loading segments…').count()).toBe(0);

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
});
