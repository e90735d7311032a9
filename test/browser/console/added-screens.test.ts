import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readNotification, sendNotification } from '../../support/delivery-harness.ts';
import { eventually } from '../../support/eventually.ts';
import { importDevices, ndjson } from '../../support/device-imports.ts';
import { journeyClient } from '../../support/journeys.ts';
import { show, useConsole } from '../../support/console.ts';
import { screenProblems } from '../../support/console-checks.ts';

/**
 * The layout rules of layout.test.ts on the pages the journeys, experiments and imports issues added, each with what
 * a marketer's project shows on it: a journey with a branch and a traveller in it, a send testing two variants, and
 * an import with a line error.
 */
const { harness, project, openConsole, signIn } = useConsole(['journey-steps', 'device-import']);
const journeys = journeyClient(
  () => harness.ingress,
  () => project,
);

let journeyId = '';
let experimentId = '';
let importId = '';
beforeAll(async () => {
  journeyId = await journeys.create({
    name: 'Order follow-up',
    entry: { event: 'checkout' },
    // A device outside the regulars waits a day, then gets a reminder.
    steps: [
      {
        id: 'regular',
        type: 'branch',
        match: 'all',
        conditions: [{ tag: 'group', op: 'eq', value: 'regular' }],
        onTrue: 'thanks',
        onFalse: 'later',
      },
      { id: 'thanks', type: 'push', title: 'Thank you', body: 'Your order is on its way', next: 'exit' },
      { id: 'later', type: 'wait', seconds: 86_400, next: 'nudge' },
      { id: 'nudge', type: 'push', title: 'Still thinking?', body: 'Your order is waiting' },
    ],
  });
  await journeys.report([{ type: 'checkout', subjectType: 'device', subjectId: 'vip-1', data: { orderId: 'o-1' } }]);
  await eventually(async () => expect(await journeys.visits(journeyId, 'device', 'vip-1')).toHaveLength(1));

  experimentId = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: ['vip-1', 'vip-2', 'regular'],
    variants: [
      { name: 'Plain reminder', body: 'Your cart is waiting' },
      { name: 'Discount offer', body: 'Ten percent off your cart today' },
    ],
    experiment: { metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
  });
  await eventually(async () => {
    const { stats } = await readNotification(harness.ingress, project, experimentId);
    expect(stats.targeted).toBeGreaterThan(0);
    expect(stats.sent).toBe(stats.targeted);
  });

  const imported = await importDevices(
    harness.ingress,
    project,
    ndjson([
      { id: 'imported-1', platform: 'android', pushToken: 'tok-imported-1', tags: { plan: 'gold' } },
      { id: 'imported-2', platform: 'ios' },
    ]),
  );
  expect(imported.failed).toBe(1);
  importId = imported.id;
});

const check = (page: Page, name: string, width: number) => screenProblems(page, `layout-${name}-${width}`);

describe("the console layout on the journey builder, a traveller's lookup, an experiment and an import", {
  timeout: 240_000,
}, () => {
  for (const width of [1280, 390])
    it(`holds at ${width} px: nothing wider than the window, nothing overlapping, no word broken, axe clean`, async () => {
      const { page, close } = await openConsole(width);
      try {
        await signIn(page);
        await page.goto(`${harness.ingress.baseUrl}/console#/journeys/${journeyId}`);
        await page.locator('[data-step="nudge"]').waitFor();
        const problems = await check(page, 'journey-builder', width);

        await page.getByLabel('Id', { exact: true }).fill('vip-1');
        await page.getByRole('button', { name: 'Look up' }).click();
        await page.getByText('vip-1 has entered 1 time.').waitFor();
        problems.push(...(await check(page, 'traveller-lookup', width)));

        await page.goto(`${harness.ingress.baseUrl}/console#/notifications/${experimentId}`);
        await page.getByTestId('experiment').locator('tr[data-variant="Discount offer"]').waitFor();
        problems.push(...(await check(page, 'experiment', width)));

        await show(page, 'device-imports');
        await page.getByRole('link', { name: 'Show' }).click();
        await page.getByTestId('import-errors').waitFor();
        problems.push(...(await check(page, 'device-import', width)));
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  it('opens the traveller a lookup found as its profile', async () => {
    const { page, close } = await openConsole(390);
    try {
      await signIn(page);
      await page.goto(`${harness.ingress.baseUrl}/console#/journeys/${journeyId}`);
      await page.getByLabel('Id', { exact: true }).fill('vip-1');
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.getByRole('link', { name: 'vip-1', exact: true }).click();
      await page.locator('article[data-device="vip-1"]').getByTestId('recent-events').waitFor();
      expect(new URL(page.url()).hash).toBe('#/devices/vip-1');
    } finally {
      await close();
    }
  });
  it('gives an import its own address, which opens it again after a reload', async () => {
    const { page, close } = await openConsole(1280);
    try {
      await signIn(page);
      await show(page, 'device-imports');
      await page.getByRole('link', { name: 'Show' }).click();
      expect(new URL(page.url()).hash).toBe(`#/device-imports/${importId}`);
      await page.reload();
      const progress = page.locator(`section[data-import="${importId}"]`);
      await progress.getByTestId('import-errors').waitFor();
      expect(await progress.getByTestId('import-failed').textContent()).toBe('1');
    } finally {
      await close();
    }
  });
});
