import { describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import { registerDevices, sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's page of a notification", { timeout: 120_000 }, () => {
  it('shows its funnel with rates, its outcomes by platform, its failure reasons and its delivery log by outcome', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [
      { id: 'p-ok', platform: 'android', token: 'tok-p-ok' },
      { id: 'p-ok2', platform: 'ios', token: 'tok-p-ok2' },
      { id: 'p-bad', platform: 'android', token: 'badpayload-p' },
      { id: 'p-gone', platform: 'ios', token: 'unregistered-p' },
    ]);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['p-ok', 'p-ok2', 'p-bad', 'p-gone'],
      title: 'Spring sale',
      body: 'Everything -20%',
    });
    await waitUntilCompleted(harness.ingress, owner, id);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'notifications');
      await page.locator(`tr[data-notification="${id}"]`).getByRole('button', { name: 'Details' }).click();
      await page.getByRole('heading', { name: 'Spring sale' }).waitFor();
      const funnel = page.getByTestId('funnel');
      await until(() => funnel.getByRole('row', { name: /^Sent/ }).textContent()).toBe('Sent250.0% of targeted');
      const reasons = page.getByTestId('failure-reasons').locator('tbody tr');
      await until(() => reasons.count()).toBe(2);
      expect(await page.getByTestId('failure-reasons').textContent()).toContain('Unregistered');
      const log = page.getByTestId('delivery-log').locator('tbody tr');
      await until(() => log.count()).toBe(4);
      await page.getByLabel('Outcome').selectOption('sent');
      await until(() => log.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-outcome')))).toEqual([
        'sent',
        'sent',
      ]);
      const results = await new AxeBuilder({ page }).analyze();
      const blocking = results.violations.filter(
        (violation) => violation.impact === 'serious' || violation.impact === 'critical',
      );
      expect(blocking.map((violation) => violation.id)).toEqual([]);
    } finally {
      await close();
    }
  });
});
