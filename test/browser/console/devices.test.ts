import { describe, expect, it } from 'vitest';
import { registerDevices, sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';
import { deviceKey } from '../../../src/models/device.ts';

const { harness, project, openConsole, signIn } = useConsole();

describe("the console's Devices screen", { timeout: 120_000 }, () => {
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
      expect(await table.locator('tbody tr').textContent()).toContain('amount12');

      await page.getByLabel('New event type').fill('console_added');
      await page.getByRole('button', { name: 'Add event type' }).click();
      await until(() =>
        page.getByTestId('event-catalog').locator('tbody tr', { hasText: 'console_added' }).textContent(),
      ).toContain('By hand');
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
});

describe("the Devices screen's browse", { timeout: 120_000 }, () => {
  it('lists the newest devices first, filtered by platform and subscription state', async () => {
    const owner = await harness.ingress.createProject('team');
    const start = Date.now() - 60_000;
    await harness.ingress.context.models.Device.insertMany(
      ['first', 'second', 'third'].map((id, index) => ({
        _id: deviceKey(owner.projectId, id),
        projectId: owner.projectId,
        deviceId: id,
        platform: index === 1 ? 'ios' : 'web',
        pushToken: `t-${owner.projectId}-${id}`,
        isSubscribed: index !== 2,
        createdAt: new Date(start + index * 1000),
        updatedAt: new Date(),
      })),
      { lean: true },
    );
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'devices');
      const rows = page.getByTestId('newest-devices').locator('tbody tr');
      const ids = () => rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-device-row')));
      await until(ids).toEqual(['third', 'second', 'first']);
      await page.getByLabel('Platform').selectOption('web');
      await until(ids).toEqual(['third', 'first']);
      await page.getByLabel('Subscription').selectOption('true');
      await until(ids).toEqual(['first']);
    } finally {
      await close();
    }
  });
});
