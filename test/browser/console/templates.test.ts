import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Templates screen", { timeout: 120_000 }, () => {
  it('lists and offers every template, past the 100 a list route answers without a limit', async () => {
    const owner = await harness.ingress.createProject('team');
    const names = Array.from({ length: 101 }, (_, index) => `Template ${String(index).padStart(3, '0')}`);
    // One after another: the oldest, the one a first page of 100 leaves out, is known.
    for (const name of names)
      expect(
        (
          await harness.ingress.request('POST', `/v1/projects/${owner.projectId}/templates`, {
            key: owner.apiKey,
            body: { name, body: name },
          })
        ).status,
      ).toBe(200);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      const list = page.getByRole('region', { name: 'Templates' }).getByRole('listitem');
      await until(() => list.count()).toBe(101);
      await page.getByRole('button', { name: 'Template 000' }).click();
      await until(() => page.getByLabel('Body').inputValue()).toBe('Template 000');

      await show(page, 'send');
      await page.getByLabel('Content from').selectOption('template');
      const picker = page.getByLabel('Template', { exact: true });
      await until(() => picker.locator('option').count()).toBe(101);
      await picker.selectOption({ label: 'Template 000' });
    } finally {
      await close();
    }
  });

  it('deletes a template only once asked, then says it was deleted', async () => {
    const owner = await harness.ingress.createProject('team');
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Short-lived');
      await page.getByLabel('Body').fill('Soon gone');
      await page.getByRole('button', { name: 'Save template' }).click();
      await page.getByRole('button', { name: 'Short-lived' }).click();
      const stored = async () =>
        (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/templates`, { key: owner.apiKey })).body
          .data.length;
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      // The question takes the focus on its safe answer: Enter keeps the template, and so does Escape; either way the
      // focus goes back to the button that asked.
      await page.keyboard.press('Enter');
      const remove = page.getByRole('button', { name: 'Delete', exact: true });
      const focused = (locator: Locator) =>
        locator.evaluate((element) => element === element.ownerDocument.activeElement);
      expect(await focused(remove)).toBe(true);
      await remove.click();
      await page.keyboard.press('Escape');
      expect(await page.getByRole('button', { name: 'Yes, delete' }).count()).toBe(0);
      expect(await focused(remove)).toBe(true);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      expect(await stored()).toBe(1);
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await until(() => page.locator('.toast').textContent()).toBe('Deleted "Short-lived".');
      expect(await stored()).toBe(0);
    } finally {
      await close();
    }
  });

  it('asks before an editor drops edits not saved, and only then', async () => {
    const owner = await harness.ingress.createProject('team');
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Kept');
      await page.getByLabel('Body').fill('Saved body');
      await page.getByRole('button', { name: 'Save template' }).click();
      // A created template leaves a blank form; it opens from the list.
      await page.getByRole('button', { name: 'Kept' }).click();
      await page.getByLabel('Title').fill('Not saved yet');
      // The question is dismissed here: the edit stays.
      await page.getByRole('button', { name: 'New template' }).click();
      expect(dialogs).toEqual(['Discard the changes you have not saved?']);
      expect(await page.getByLabel('Title').inputValue()).toBe('Not saved yet');
      // Another screen from the menu, or the browser's back button, asks the same; dismissed, the edit stays.
      const screenHeading = () => page.getByRole('heading', { level: 1 }).textContent();
      await page.goBack();
      await until(() => dialogs.length).toBe(2);
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Segments' }).click();
      await until(() => dialogs.length).toBe(3);
      expect(await screenHeading()).toBe('Templates');
      expect(page.url()).toMatch(/#\/templates$/);
      expect(await page.getByLabel('Title').inputValue()).toBe('Not saved yet');
      await page.getByRole('button', { name: 'Save template' }).click();
      // Once saved (the API has it, and the screen its answer), there is nothing to lose.
      await until(
        async () =>
          (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/templates`, { key: owner.apiKey }))
            .body.data[0]?.title,
      ).toBe('Not saved yet');
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await page.getByRole('button', { name: 'New template' }).click();
      await until(() => page.getByLabel('Name').inputValue()).toBe('');
      expect(dialogs).toHaveLength(3);

      await show(page, 'segments');
      await page.getByLabel('Name').fill('Scores');
      await page.getByLabel('Tag', { exact: true }).fill('score');
      await page.getByLabel('Operator').selectOption('gte');
      await page.getByLabel('Value', { exact: true }).fill('10');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await page.getByRole('status').filter({ hasText: 'Created' }).waitFor();
      await page.getByRole('button', { name: 'Scores' }).click();
      await until(() => page.getByLabel('Value', { exact: true }).inputValue()).toBe('10');
      // Saved as the number 10, shown again as it was typed: nothing to lose, nothing asked.
      await page.getByRole('button', { name: 'New segment' }).click();
      await until(() => page.getByLabel('Name').inputValue()).toBe('');
      expect(dialogs).toHaveLength(3);
    } finally {
      await close();
    }
  });

  it("names a preview device id the API refuses beside its field, not as the template's Liquid", async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'templates');
      await page.getByLabel('Body').fill('Hello {{ device.tags.name }}');
      await page.getByRole('region', { name: 'Preview', exact: true }).getByText('Advanced').click();
      await page.getByLabel('Preview for device id').fill('user@example.com');
      const deviceField = page.getByLabel('Preview for device id');
      await until(() => deviceField.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('No preview; see the fields marked.').count()).toBe(0);
      expect(await page.getByLabel('Body').getAttribute('aria-invalid')).toBeNull();
      expect(
        await page
          .getByText('Give a device id as your app registered it: up to 128 letters, digits and . _ : -')
          .count(),
      ).toBe(1);
      // A body that renders blank is no syntax error: the field says so, as its delivery would.
      await page.getByLabel('Preview for device id').fill('');
      await page.getByLabel('Body').fill('{{ data.nothing }}');
      await until(() => page.getByLabel('Body').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('This comes out blank for this device: give its {{ }} a default').count()).toBe(1);
      expect(await page.getByRole('alert').filter({ hasText: 'No preview; see the fields marked.' }).count()).toBe(1);
    } finally {
      await close();
    }
  });
});
