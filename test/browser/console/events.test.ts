import { describe, expect, it } from 'vitest';
import { registerDevices } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Events screen", { timeout: 120_000 }, () => {
  it('reads older events page after page, to the first one', async () => {
    const owner = await harness.ingress.createProject('team');
    const reported = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/events`, {
      key: owner.apiKey,
      body: {
        events: Array.from({ length: 120 }, (_, index) => ({
          type: 'seen',
          subjectType: 'user',
          subjectId: 'many',
          data: { index },
        })),
      },
    });
    expect(reported.body.data.success).toBe(120);
    const stored = () =>
      harness.ingress.request('GET', `/v1/projects/${owner.projectId}/events?limit=500`, { key: owner.apiKey });
    await until(async () => (await stored()).body.data.length).toBe(120);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'events');
      const rows = page.getByTestId('events-table').locator('tbody tr');
      await until(() => rows.count()).toBe(50);
      const older = page.getByRole('button', { name: 'Older events' });
      await older.click();
      await until(() => rows.count()).toBe(100);
      await older.click();
      await until(() => rows.count()).toBe(120);
      expect(await older.count()).toBe(0);
      const data = await rows.locator('dl.tags').allTextContents();
      expect(new Set(data).size).toBe(120);
    } finally {
      await close();
    }
  });

  it('reads the events and the event catalog again on each Filter, also with the filters unchanged', async () => {
    const owner = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, owner, [{ id: 'eventful', platform: 'android', token: 'console-eventful' }]);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'events');
      await page.getByLabel('Event type', { exact: true }).fill('late_arrival');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No event matches.').waitFor();
      const reported = await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/events`, {
        key: owner.apiKey,
        body: { events: [{ type: 'late_arrival', subjectType: 'device', subjectId: 'eventful', data: {} }] },
      });
      expect(reported.body.data.success).toBe(1);
      // Stored, and its type in the catalog, which the worker writes just after the events.
      const listed = async (path: string) =>
        JSON.stringify(
          (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}${path}`, { key: owner.apiKey })).body
            .data,
        );
      await until(() => listed('/events?type=late_arrival')).toContain('late_arrival');
      await until(() => listed('/event-types')).toContain('late_arrival');
      await page.getByRole('button', { name: 'Filter' }).click();
      await until(() => page.getByTestId('events-table').locator('tbody tr').count()).toBe(1);
      // The catalog says how often and when the type was last seen, in a marketer's words.
      const catalogRow = page.getByTestId('event-catalog').locator('tbody tr', { hasText: 'late_arrival' });
      await until(() => catalogRow.locator('td').allTextContents()).toEqual([
        'late_arrival',
        '1',
        'Today',
        'From events',
      ]);
    } finally {
      await close();
    }
  });
});
