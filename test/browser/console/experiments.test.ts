import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { decideExperiment } from '../../../src/experiments/decide-experiment.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  waitUntilCompleted,
} from '../../support/delivery-harness.ts';
import { eventually } from '../../support/eventually.ts';
import { patchSettings } from '../../support/timing.ts';
import { afterRefresh, show, until, useConsole } from '../../support/console.ts';
import { screenProblems } from '../../support/console-checks.ts';

const { harness, openConsole, signIn } = useConsole();
/** The notification page reads a send in progress again every 2 s (notification-page.tsx). */
const notificationRefreshMs = 2000;

/** A project counting purchases (worth their amount), with twelve devices in a segment "Everyone". */
async function experimentProject() {
  const owner = await harness.ingress.createProject('team');
  await patchSettings(harness.ingress, owner, { conversions: [{ event: 'purchase', valueField: 'amount' }] });
  const ids = Array.from({ length: 12 }, (_, index) => `x-${index}`);
  await registerDevices(
    harness.ingress,
    owner,
    ids.map((id) => ({ id, platform: 'android' as const, token: `tok-${owner.projectId}-${id}` })),
  );
  const segment = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/segments`, {
    key: owner.apiKey,
    body: { name: 'Everyone', match: 'all', conditions: [] },
  });
  expect(segment.status).toBe(200);
  return { owner, ids };
}

const describedText = async (field: Locator) => {
  const id = (await field.getAttribute('aria-describedby'))!.split(' ').at(-1);
  return field.page().locator(`[id="${id}"]`).textContent();
};

describe("the console's experiments (CONTRACTS §19)", { timeout: 180_000 }, () => {
  for (const width of [1280, 390])
    it(`sends variants, compares them with their conversions and picks a winner by hand, at ${width} px`, async () => {
      const { owner, ids } = await experimentProject();
      const { page, close } = await openConsole(width);
      await page.clock.install();
      const refreshed = <T>(read: () => Promise<T>) => afterRefresh(page, notificationRefreshMs, read);
      try {
        await signIn(page, owner.apiKey);
        await show(page, 'send');
        await page.getByLabel('Content from').selectOption('variants');
        const first = page.getByRole('group', { name: 'Variant 1' });
        const second = page.getByRole('group', { name: 'Variant 2' });
        await first.getByLabel('Title').fill('Spring sale');
        await first.getByLabel('Body').fill('Everything -20%');
        await second.getByLabel('Body').fill('Your spring treat is waiting');
        // A third, then gone again: two to ten variants.
        await page.getByRole('button', { name: 'Add a variant' }).click();
        await page.getByRole('button', { name: 'Remove variant 3' }).click();
        await page.getByLabel('Test share (%)').fill('50');
        await page.getByLabel('Measured by').selectOption('conversion:purchase');
        await page.getByLabel('Winner chosen').selectOption('manual');
        await page.getByLabel('Segment', { exact: true }).selectOption({ label: 'Everyone' });
        // The preview shows the first variant.
        await until(() => page.getByTestId('send-preview').textContent()).toContain('Everything -20%');

        // Two variants of one name: said on the second's name in words, nothing sent.
        await second.getByLabel('Name').fill('A');
        await page.getByRole('button', { name: 'Send…', exact: true }).click();
        await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
          'Send it to 12 subscribed devices now?',
        );
        await page.getByRole('button', { name: 'Confirm send' }).click();
        const name = second.getByLabel('Name');
        await until(() => name.getAttribute('aria-invalid')).toBe('true');
        expect(await describedText(name)).toBe(
          'Give each variant a name of 1 to 32 characters, different from the others.',
        );
        expect(await page.locator('main').textContent()).not.toMatch(/\/variants|\{"/);
        expect(await screenProblems(page, `experiment-send-${width}`)).toEqual([]);
        const listed = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications`, {
          key: owner.apiKey,
        });
        expect(listed.body.data).toEqual([]);

        await name.fill('B');
        await page.getByRole('button', { name: 'Send…', exact: true }).click();
        await page.getByRole('button', { name: 'Confirm send' }).click();
        await page.getByRole('link', { name: 'Follow it on its page' }).click();
        const id = new URL(page.url()).hash.split('/').at(-1)!;
        // The tested half has its push; each tested device then buys for 10.
        const tested = await eventually(async () => {
          const view = await readNotification(harness.ingress, owner, id);
          expect(view.stats.targeted).toBeGreaterThan(0);
          expect(view.stats.sent).toBe(view.stats.targeted);
          return view.stats.sent as number;
        });
        const events = ids.map((subjectId) => ({
          type: 'purchase',
          subjectType: 'device',
          subjectId,
          data: { amount: 10 },
        }));
        await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/events`, {
          key: owner.apiKey,
          body: { events },
        });

        const experiment = page.getByTestId('experiment');
        expect(await experiment.getByTestId('experiment-status').textContent()).toBe(
          'Testing on 50% of the audience; the rest waits for the winner.',
        );
        const funnel = page.getByTestId('funnel');
        await until(refreshed(() => funnel.locator('[data-stat="conversion-purchase"] strong').textContent())).toBe(
          String(tested),
        );
        expect(await funnel.locator('[data-stat="conversion-purchase"] .muted').textContent()).toBe(
          `100% of sent, worth ${(10 * tested).toLocaleString('en-US')}`,
        );
        const rows = experiment.locator('tbody tr');
        expect(await rows.evaluateAll((cells) => cells.map((row) => row.getAttribute('data-variant')))).toEqual([
          'A',
          'B',
        ]);
        // Devices are grouped by a hash, so a variant may get none of so few: read the one that got the most.
        const sentOf = async (variant: string) =>
          Number(await experiment.locator(`tr[data-variant="${variant}"] td[data-label="Sent"]`).textContent());
        const [sentToA, sentToB] = [await sentOf('A'), await sentOf('B')];
        const picked = sentToA >= sentToB ? 'A' : 'B';
        const pickedRow = experiment.locator(`tr[data-variant="${picked}"]`);
        const sentToPicked = Math.max(sentToA, sentToB);
        await until(() => pickedRow.locator('td[data-label="Conversions"]').textContent()).toBe(
          `purchase ${sentToPicked} (worth ${10 * sentToPicked})`,
        );
        // Every tested device of that variant bought: 100%, with the interval of a sample that small.
        expect(await pickedRow.locator('td[data-label="Rate of purchase"]').textContent()).toMatch(
          /^100% 95% sure between \d+(\.\d)?% and 100%$/,
        );
        expect(await experiment.getByTestId('experiment-decision').textContent()).toBe(
          'No winner yet. Measured by conversions (purchase) per push sent.',
        );
        expect(await screenProblems(page, `experiment-testing-${width}`)).toEqual([]);

        await pickedRow.getByRole('button', { name: `Pick ${picked}` }).click();
        await page.getByRole('button', { name: `Yes, pick ${picked}` }).click();
        await until(() => experiment.getByTestId('experiment-decision').textContent()).toMatch(
          new RegExp(
            `^Winner: ${picked}, picked by hand on .+\\. Measured by conversions \\(purchase\\) per push sent\\.$`,
          ),
        );
        await until(
          refreshed(() => page.getByTestId('status').textContent()),
          { timeout: 30_000 },
        ).toBe('completed');
        expect(await experiment.getByRole('button', { name: /^Pick / }).count()).toBe(0);
        await until(refreshed(() => funnel.locator('[data-stat="sent"] strong').textContent())).toBe('12');
        expect(await screenProblems(page, `experiment-decided-${width}`)).toEqual([]);

        // The list shows the conversions beside the clicks.
        await show(page, 'notifications');
        const row = page.locator(`tr[data-notification="${id}"]`);
        await until(() => row.locator('[data-stat="conversions"]').textContent()).toBe(
          `converted: purchase ${tested} (worth ${10 * tested})`,
        );
        expect(await screenProblems(page, `experiment-list-${width}`)).toEqual([]);
      } finally {
        await close();
      }
    });

  it('shows an automatic decision: the winner, its p-value and who decided', async () => {
    const { owner, ids } = await experimentProject();
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ids,
      variants: [
        { name: 'plain', body: 'plain' },
        { name: 'bold', body: 'bold' },
      ],
      experiment: { metric: 'clicked', decideAfterMinutes: 60, winner: 'auto' },
    });
    await eventually(async () => expect((await readNotification(harness.ingress, owner, id)).stats.sent).toBe(12));
    // Every device that got "bold" clicks it, none of the others.
    const bold = ids.filter((deviceId) =>
      harness.sandbox
        .deliveries(`tok-${owner.projectId}-${deviceId}`)
        .some((delivery) => (delivery.payload as any).notification.body === 'bold'),
    );
    for (const deviceId of bold) {
      const click = await harness.ingress.request(
        'POST',
        `/v1/sdk/projects/${owner.projectId}/devices/${deviceId}/events`,
        { key: owner.clientKey, body: { type: '@clicked', data: { notificationId: id } } },
      );
      expect(click.status).toBe(200);
    }
    await eventually(async () =>
      expect((await readNotification(harness.ingress, owner, id)).stats.clicked).toBe(bold.length),
    );
    // The decision job's own code, run now rather than in an hour.
    expect(await decideExperiment(harness.workers.context, id)).toBe(true);
    await waitUntilCompleted(harness.ingress, owner, id);
    const { page, close } = await openConsole(390);
    try {
      await signIn(page, owner.apiKey);
      await page.goto(`${harness.ingress.baseUrl}/console#/notifications/${id}`);
      const experiment = page.getByTestId('experiment');
      await until(() => experiment.getByTestId('experiment-decision').textContent()).toMatch(
        /^Winner: bold, decided automatically on .+\. Measured by clicks per push sent\.$/,
      );
      expect(await experiment.getByTestId('experiment-status').textContent()).toBe('Completed.');
      expect(await experiment.getByTestId('experiment-p-value').textContent()).toMatch(
        /^p-value (below 0\.001|0\.0[0-4]\d) \(under the 0\.05 threshold\): the difference between the variants is unlikely to be chance\.$/,
      );
      expect(await experiment.locator('tr[data-variant="bold"] td[data-label="Variant"]').textContent()).toBe(
        'bold winner',
      );
      expect(await experiment.locator('tr[data-variant="bold"] td[data-label="Click rate"]').textContent()).toMatch(
        /^100% 95% sure between/,
      );
      expect(await experiment.locator('tr[data-variant="plain"] td[data-label="Conversions"]').textContent()).toBe('—');
      expect(await experiment.getByRole('button', { name: /^Pick/ }).count()).toBe(0);
      expect(await screenProblems(page, 'experiment-auto-390')).toEqual([]);
    } finally {
      await close();
    }
  });
});
