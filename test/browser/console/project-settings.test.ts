import { describe, expect, it } from 'vitest';
import { show, until, useConsole } from '../../support/console.ts';

const { harness, lists, openConsole, signIn } = useConsole();

const readProject = async () =>
  (await harness.ingress.request('GET', `/v1/projects/${lists.projectId}`, { key: lists.apiKey })).body.data;

describe("the console's delivery settings (CONTRACTS §15)", { timeout: 120_000 }, () => {
  it('saves the default zone, quiet hours and the frequency cap, and shows a bad field without saving', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page, lists.apiKey);
      await show(page, 'project');
      await page.getByLabel('Default time zone').fill('Europe/Berlin');
      await page.getByLabel('Quiet from').fill('22:00');
      await page.getByLabel('Quiet until').fill('07:30');
      await page.getByLabel('At most pushes').fill('3');
      await page.getByLabel('Per hours').fill('24');
      await page.getByRole('button', { name: 'Save delivery settings' }).click();
      await until(() => page.getByRole('status').textContent()).toBe('Saved.');
      expect(await readProject()).toMatchObject({
        defaultTimezone: 'Europe/Berlin',
        quietHours: { start: '22:00', end: '07:30' },
        frequencyCap: { max: 3, windowHours: 24 },
      });

      await page.getByLabel('Quiet until').fill('25:00');
      await page.getByRole('button', { name: 'Save delivery settings' }).click();
      await until(() => page.getByRole('alert').textContent()).toContain('/quietHours');
      expect((await readProject()).quietHours).toEqual({ start: '22:00', end: '07:30' });

      await page.getByLabel('Quiet from').fill('');
      await page.getByLabel('Quiet until').fill('');
      await page.getByRole('button', { name: 'Save delivery settings' }).click();
      await until(async () => (await readProject()).quietHours).toBeNull();
    } finally {
      await close();
    }
  });
});
