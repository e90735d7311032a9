import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { show, until, useConsole } from '../../support/console.ts';
import { screenProblems } from '../../support/console-checks.ts';

const { harness, lists, openConsole, signIn } = useConsole();

const readProject = async () =>
  (await harness.ingress.request('GET', `/v1/projects/${lists.projectId}`, { key: lists.apiKey })).body.data;

describe("the console's conversions (CONTRACTS §19)", { timeout: 120_000 }, () => {
  for (const width of [1280, 390])
    it(`saves conversions in the project settings and shows a bad one on its field in words, at ${width} px`, async () => {
      await harness.ingress.request('PATCH', `/v1/projects/${lists.projectId}/settings`, {
        key: lists.apiKey,
        body: { conversions: [] },
      });
      const { page, close } = await openConsole(width);
      try {
        await signIn(page, lists.apiKey);
        await show(page, 'project');
        await page.getByText('No conversion yet').waitFor();
        await page.getByRole('button', { name: 'Add a conversion' }).click();
        const first = page.getByRole('group', { name: 'Conversion 1' });
        await first.getByLabel('Event').fill('purchase');
        await first.getByLabel('Counts within (hours)').fill('48');
        await first.getByLabel('Value field (optional)').fill('amount');
        await page.getByRole('button', { name: 'Add a conversion' }).click();
        const second = page.getByRole('group', { name: 'Conversion 2' });
        await second.getByLabel('Event').fill('signup');
        await second.getByLabel('Credited to').selectOption('click');
        await page.getByRole('button', { name: 'Save conversions' }).click();
        await until(async () => (await readProject()).conversions).toEqual([
          { event: 'purchase', windowHours: 48, attribution: 'send', valueField: 'amount' },
          { event: 'signup', windowHours: 24, attribution: 'click' },
        ]);
        expect(await screenProblems(page, `conversions-settings-${width}`)).toEqual([]);

        // Five at most: the sixth cannot be added.
        for (let count = 3; count <= 5; count++) {
          await page.getByRole('button', { name: 'Add a conversion' }).click();
          await page
            .getByRole('group', { name: `Conversion ${count}` })
            .getByLabel('Event')
            .fill(`event-${count}`);
        }
        expect(await page.getByRole('button', { name: 'Add a conversion' }).count()).toBe(0);
        for (let count = 5; count >= 3; count--)
          await page.getByRole('button', { name: `Remove conversion ${count}` }).click();

        // A window too long, then the same event twice: each said on its field, nothing saved.
        const note = async (field: Locator) =>
          page.locator(`[id="${(await field.getAttribute('aria-describedby'))!.split(' ').at(-1)}"]`).textContent();
        const window = first.getByLabel('Counts within (hours)');
        await window.fill('1000');
        await page.getByRole('button', { name: 'Save conversions' }).click();
        await until(() => window.getAttribute('aria-invalid')).toBe('true');
        expect(await note(window)).toBe('Give a whole number of hours from 1 to 720.');
        await window.fill('48');
        await second.getByLabel('Event').fill('purchase');
        await page.getByRole('button', { name: 'Save conversions' }).click();
        await until(() => second.getByLabel('Event').getAttribute('aria-invalid')).toBe('true');
        expect(await window.getAttribute('aria-invalid')).toBeNull();
        expect(await note(second.getByLabel('Event'))).toBe(
          'Name an event type (pick one from the list or type it), each only once.',
        );
        expect(await page.getByRole('alert').textContent()).toBe(
          'Some conversions need a change: see the marked fields.',
        );
        expect(await page.locator('main').textContent()).not.toMatch(/\/conversions|\{"/);
        expect(await screenProblems(page, `conversions-errors-${width}`)).toEqual([]);
        expect((await readProject()).conversions).toHaveLength(2);
      } finally {
        await close();
      }
    });
});
