import { describe, expect, it } from 'vitest';
import { until, useConsole } from '../../support/console.ts';
import { deviceKey } from '../../../src/models/device.ts';
import { dayMs, startOfUtcDay } from '../../../src/infra/utc-day.ts';
import { addToDay } from '../../../src/overview/daily-counts.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Overview screen", { timeout: 120_000 }, () => {
  it('opens after sign-in with headline numbers and 30 days of charts, each with a table behind it, over a period picked', async () => {
    const owner = await harness.ingress.createProject('team');
    const { Device } = harness.ingress.context.models;
    const twoDaysAgo = new Date(startOfUtcDay(new Date()).getTime() - 2 * dayMs + 3_600_000);
    const day = twoDaysAgo.toISOString().slice(0, 10);
    await Device.insertMany(
      ['a', 'b', 'c', 'd'].map((id) => ({
        _id: deviceKey(owner.projectId, id),
        projectId: owner.projectId,
        deviceId: id,
        platform: 'web',
        pushToken: `t-${owner.projectId}-${id}`,
        isSubscribed: true,
        createdAt: twoDaysAgo,
        updatedAt: twoDaysAgo,
      })),
      { lean: true },
    );
    // The four devices subscribed two days ago, when four pushes were sent and one device clicked.
    await addToDay(harness.ingress.context, owner.projectId, { sent: 4, clicked: 1, subscribed: 4 }, twoDaysAgo);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const chart = (title: string) => page.locator(`figure[data-chart="${title}"]`);
      await until(() => chart('Pushes sent').locator('.chart-column').count()).toBe(30);
      const figure = (name: string) => page.getByTestId('headlines').locator(`[data-figure="${name}"] strong`);
      expect(await figure('Subscribed now').textContent()).toBe('4');
      expect(await figure('Pushes sent').textContent()).toBe('4');
      expect(await figure('Click-through rate').textContent()).toBe('25%');
      // Round numbers on the axis, at the page's type size; a count's axis has no half push or half click on it.
      expect(await chart('Pushes sent').locator('.chart-y span').allTextContents()).toEqual(['6', '3', '0']);
      expect(await chart('Clicks').locator('.chart-y span').allTextContents()).toEqual(['2', '1', '0']);
      expect(await chart('Click-through rate').locator('.chart-y span').allTextContents()).toEqual([
        '50%',
        '25%',
        '0%',
      ]);
      const axisSize = await chart('Pushes sent')
        .locator('.chart-y span')
        .first()
        .evaluate((element) =>
          Number.parseFloat(element.ownerDocument.defaultView!.getComputedStyle(element).fontSize),
        );
      expect(axisSize).toBeGreaterThanOrEqual(12);
      const cell = async (title: string) => {
        await chart(title).locator('summary').click();
        return chart(title).getByRole('row', { name: day }).locator('td').textContent();
      };
      expect(await cell('Subscribed devices')).toBe('4');
      expect(await cell('Pushes sent')).toBe('4');
      expect(await cell('Clicks')).toBe('1');
      expect(await cell('Click-through rate')).toBe('25%');
      await page.getByLabel('7 days').check();
      await until(() => chart('Pushes sent').locator('.chart-column').count()).toBe(7);
      await page.getByLabel('90 days').check();
      await until(() => chart('Pushes sent').locator('.chart-column').count()).toBe(90);
    } finally {
      await close();
    }
  });

  it('shows a new project its first steps, with its own id in the snippet, instead of empty charts', async () => {
    const owner = await harness.ingress.createProject('team');
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      const steps = page.getByTestId('first-steps');
      await until(() => steps.locator('pre').textContent()).toContain(`projectId: '${owner.projectId}'`);
      expect(await page.locator('figure.chart').count()).toBe(0);
      await steps.getByRole('link', { name: 'Send' }).click();
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Send');
    } finally {
      await close();
    }
  });
});
