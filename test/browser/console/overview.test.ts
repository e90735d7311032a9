import { describe, expect, it } from 'vitest';
import { until, useConsole } from '../../support/console.ts';
import { deviceKey } from '../../../src/models/device.ts';
import { dayMs, startOfUtcDay } from '../../../src/infra/utc-day.ts';
import { addToDay } from '../../../src/overview/daily-counts.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Overview screen", { timeout: 120_000 }, () => {
  it('opens after sign-in with 30 days of charts, each with a table of the seeded numbers behind it', async () => {
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
    await addToDay(harness.ingress.context.models, owner.projectId, { sent: 4, clicked: 1, subscribed: 4 }, twoDaysAgo);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const chart = (title: string) => page.locator(`figure[data-chart="${title}"]`);
      await until(() => chart('Pushes sent').locator('rect').count()).toBe(30);
      const cell = async (title: string) => {
        await chart(title).locator('summary').click();
        return chart(title).getByRole('row', { name: day }).locator('td').textContent();
      };
      expect(await cell('Subscribed devices')).toBe('4');
      expect(await cell('Pushes sent')).toBe('4');
      expect(await cell('Pushes clicked')).toBe('1');
      expect(await cell('Click-through rate')).toBe('25.0%');
    } finally {
      await close();
    }
  });
});
