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
      // Picked from the list of zones, not typed.
      await page.getByLabel('Default time zone').selectOption('Europe/Berlin');
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

      // A bad cap is said on its field in words, with no API path or JSON shape anywhere.
      await page.getByLabel('At most pushes').fill('5000');
      await page.getByRole('button', { name: 'Save delivery settings' }).click();
      const cap = page.getByLabel('At most pushes');
      await until(() => cap.getAttribute('aria-invalid')).toBe('true');
      const described = (await cap.getAttribute('aria-describedby'))!.split(' ').at(-1)!;
      expect(await page.locator(`[id="${described}"]`).textContent()).toBe(
        'Give from 1 to 1000 pushes per 1 to 720 hours, or leave both blank to turn the cap off.',
      );
      expect(await page.getByRole('alert').textContent()).toBe('Some settings need a change: see the marked fields.');
      expect(await page.locator('main').textContent()).not.toMatch(/\/frequencyCap|\{"/);
      expect((await readProject()).frequencyCap).toEqual({ max: 3, windowHours: 24 });
      await page.getByLabel('At most pushes').fill('3');

      await page.getByLabel('Quiet from').fill('');
      await page.getByLabel('Quiet until').fill('');
      await page.getByRole('button', { name: 'Save delivery settings' }).click();
      await until(async () => (await readProject()).quietHours).toBeNull();
    } finally {
      await close();
    }
  });
});
