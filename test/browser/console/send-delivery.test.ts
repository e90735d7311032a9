import { describe, expect, it } from 'vitest';
import { show, until, useConsole } from '../../support/console.ts';

const { harness, project, openConsole, signIn } = useConsole();

describe("the send screen's delivery options (CONTRACTS §15)", { timeout: 120_000 }, () => {
  it('sends at a local time with the opt-outs and a throttle; the notifications list shows what is not sent yet, and cancels it', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'send');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('regular');
      await page.getByLabel('Body').fill('Good morning');
      // An hour away from now in UTC, the zone of a device without one here: it waits.
      const later = new Date(Date.now() + 3_600_000).toISOString().slice(11, 16);
      await page.getByLabel('At a local time').fill(later);
      await page.getByLabel('At most pushes per minute').fill('60');
      await page.getByLabel('Send during quiet hours').check();
      await page.getByLabel('Ignore the frequency cap (transactional)').check();
      await page.getByRole('button', { name: 'Send…', exact: true }).click();
      await page.getByRole('button', { name: 'Confirm send' }).click();
      const accepted = page.getByRole('status').filter({ hasText: 'Accepted as notification' });
      const id = (await accepted.locator('code').textContent())!;
      const view = await harness.ingress.request('GET', `/v1/projects/${project.projectId}/notifications/${id}`, {
        key: project.apiKey,
      });
      expect(view.body.data).toMatchObject({
        localTime: later,
        throttlePerMinute: 60,
        ignoreQuietHours: true,
        ignoreFrequencyCap: true,
      });

      await show(page, 'notifications');
      const row = page.locator(`tr[data-notification="${id}"]`);
      await until(() => row.getByTestId('status').textContent()).toBe('sending');
      await until(() => row.locator('[data-stat="waiting"]').textContent()).toBe('not sent 1');
      expect(await row.locator('[data-stat="capped"]').textContent()).toBe('capped 0');
      // What waits can still be called back.
      await row.getByRole('button', { name: 'Cancel send' }).click();
      await row.getByRole('button', { name: 'Yes, cancel send' }).click();
      await until(() => row.getByTestId('status').textContent()).toBe('canceled');
      expect(harness.sandbox.deliveries('console-regular')).toEqual([]);
    } finally {
      await close();
    }
  });
});
