import { describe, expect, it } from 'vitest';
import { registerDevices, sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's page of a notification", { timeout: 120_000 }, () => {
  it('has its own address, and shows its funnel with rates, its platforms, its failures in words and its delivery log', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'p-ok', platform: 'android', token: 'tok-p-ok', tags: { name: 'Ada' } },
      { id: 'p-ok2', platform: 'ios', token: 'tok-p-ok2', tags: { name: 'Ada' } },
      { id: 'p-bad', platform: 'android', token: 'badpayload-p' },
      { id: 'p-gone', platform: 'ios', token: 'unregistered-p' },
    ]);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['p-ok', 'p-ok2', 'p-bad', 'p-gone'],
      title: 'Spring sale for {{ device.tags.name }}',
      body: 'Everything -20%',
    });
    await waitUntilCompleted(harness.ingress, owner, id);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      await page.locator(`tr[data-notification="${id}"]`).getByRole('link', { name: 'Details' }).click();
      expect(new URL(page.url()).hash).toBe(`#/notifications/${id}`);
      // The title as the device read it, not its Liquid.
      await page.getByRole('heading', { level: 2, name: 'Spring sale for Ada' }).waitFor();
      // Its id is for engineers, folded under Advanced.
      const apiId = page.getByTestId('api-id');
      expect(await apiId.isVisible()).toBe(false);
      await page.getByText('Advanced', { exact: true }).click();
      expect(await apiId.textContent()).toBe(id);
      const funnel = page.getByTestId('funnel');
      await until(() => funnel.locator('[data-stat="sent"]').textContent()).toBe('Sent2 50% of targeted');
      expect(await funnel.getByRole('list', { name: 'Not delivered' }).textContent()).toBe(
        'Failed: 1 (25%)Unsubscribed: 1 (25%)',
      );
      const platforms = page.getByTestId('platforms');
      expect(await platforms.locator('[data-platform="ios"] h3').textContent()).toBe('iOS');
      const reasons = page.getByTestId('failure-reasons');
      await until(() => reasons.textContent()).toContain('The app was uninstalled or its token expired');
      const log = page.getByTestId('delivery-log').locator('tbody tr');
      await until(() => log.count()).toBe(4);
      await page.getByLabel('Outcome').selectOption('sent');
      await until(() => log.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-outcome')))).toEqual([
        'sent',
        'sent',
      ]);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the delivery log (CSV)' }).click();
      const csv = await (await download).createReadStream();
      const text = (await csv.toArray()).join('');
      expect(text.trim().split(/\r?\n/)).toHaveLength(3);
      expect(text).toContain('p-ok,android,sent');

      // The address alone opens it again, after a reload.
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Spring sale for Ada' }).waitFor();
      // Send again: the send screen opens with its content, as it was written.
      await page.getByRole('link', { name: 'Send again' }).click();
      await until(() => page.getByLabel('Title').inputValue()).toBe('Spring sale for {{ device.tags.name }}');
      expect(await page.getByLabel('Body').inputValue()).toBe('Everything -20%');
    } finally {
      await close();
    }
  });

  it('follows a throttled send by itself until it completes', async () => {
    const owner = await harness.ingress.createProject('team');
    const ids = Array.from({ length: 6 }, (_, index) => `slow-${index}`);
    await registerDevices(
      harness.ingress,
      owner,
      ids.map((id) => ({ id, platform: 'android', token: `tok-${id}` })),
    );
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ids,
      body: 'One a second',
      throttlePerMinute: 60,
    });
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await page.goto(`${harness.ingress.baseUrl}/console#/notifications/${id}`);
      const sent = page.getByTestId('funnel').locator('[data-stat="sent"] strong');
      const seen = new Set<string>();
      await until(
        async () => {
          seen.add((await sent.textContent()) ?? '');
          return page.getByTestId('status').textContent();
        },
        { timeout: 30_000 },
      ).toBe('completed');
      expect(await sent.textContent()).toBe('6');
      // It showed the send part-way, then whole, without a reload.
      expect([...seen].filter((value) => value !== '' && value !== '6').length).toBeGreaterThan(0);
      // And its log whole too: read once more after the answer that said the send ended, then no more.
      await until(() => page.getByTestId('delivery-log').locator('tbody tr').count(), { timeout: 5000 }).toBe(6);
    } finally {
      await close();
    }
  });

  it('names its template, and says how many pushes wait, until when and why', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'later-1', platform: 'android', token: 'tok-later-1' },
      { id: 'later-2', platform: 'ios', token: 'tok-later-2' },
    ]);
    const template = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/templates`, {
      key: owner.apiKey,
      body: { name: 'Evening reminder', title: 'See you tonight', body: 'Doors open at eight' },
    });
    // A local time 90 minutes from now (devices without a zone are in UTC): both pushes wait for it.
    const due = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 90 * 60_000);
    const clock = due.toISOString().slice(11, 16);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['later-1', 'later-2'],
      templateId: template.body.data.id,
      localTime: clock,
    });
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await page.goto(`${harness.ingress.baseUrl}/console#/notifications/${id}`);
      await until(() => page.getByTestId('template-name').textContent()).toBe('Evening reminder');
      const waiting = page.getByTestId('waiting-pushes');
      await until(() => waiting.locator('p').textContent(), { timeout: 30_000 }).toBe(
        `2 pushes wait; the next is due ${await page.evaluate((iso) => new Date(iso).toLocaleString(), due.toISOString())}.`,
      );
      await waiting.getByRole('button', { name: 'Show the waiting pushes and why they wait' }).click();
      const log = page.getByTestId('delivery-log').locator('tbody tr');
      await until(() => log.locator('td[data-label="Why"]').allTextContents()).toEqual([
        'Waiting for the local time chosen, in the device’s own zone',
        'Waiting for the local time chosen, in the device’s own zone',
      ]);
      expect(await log.locator('td[data-label="Outcome"]').allTextContents()).toEqual(['Waiting', 'Waiting']);
      // The CSV export takes every outcome but the waiting one.
      expect(await page.getByRole('button', { name: 'Download the delivery log (CSV)' }).count()).toBe(0);
    } finally {
      await close();
    }
  });
});
