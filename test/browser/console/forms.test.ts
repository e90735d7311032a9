import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { show, until, useConsole } from '../../support/console.ts';
import { screenProblems } from '../../support/console-checks.ts';

const { harness, openConsole, signIn } = useConsole();

/** The words beside a field: its error, tied to it by aria-describedby. */
async function fieldError(page: Page, field: Locator): Promise<string | null> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const id = (await field.getAttribute('aria-describedby'))!.split(' ').at(-1)!;
  return page.locator(`[id="${id}"]`).textContent();
}

/** Nothing on the screen reads as the API's path or a JSON shape. */
const noApiWords = async (page: Page) =>
  expect(await page.locator('main').textContent()).not.toMatch(/\/(name|title|body|url|buttons|conditions)\b|\{"/);

const markedFields = 'Some fields need a change: see the marked fields.';

/** Deletes the open item, first answering "Keep it" (nothing deleted), then "Yes". */
async function deleteAfterKeeping(page: Page, stored: () => Promise<number>, question: RegExp) {
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  expect(await page.getByRole('group', { name: 'Delete' }).textContent()).toMatch(question);
  await page.getByRole('button', { name: 'Keep it' }).click();
  expect(await page.getByRole('button', { name: 'Yes, delete' }).count()).toBe(0);
  expect(await stored()).toBe(1);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await until(stored).toBe(0);
}

describe.each([1280, 390])("the console's editors at %i px say the API's errors on their fields", (width) => {
  it('templates: an error on its field in words, a create that clears the form, a delete kept then done', async () => {
    const owner = await harness.ingress.createProject('team');
    const stored = async () =>
      (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/templates`, { key: owner.apiKey })).body
        .data.length;
    const { page, close } = await openConsole(width);
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Spring sale');
      await page.getByLabel('Body').fill('20% off today');
      await page.getByLabel('URL', { exact: true }).fill('javascript:alert(1)');
      await page.getByRole('button', { name: 'Save template' }).click();
      const url = page.getByLabel('URL', { exact: true });
      await until(() => fieldError(page, url)).toBe(
        "Give the page or app link a tap opens (https://… or your app's own link); javascript:, data: and vbscript: links are refused.",
      );
      expect(await page.getByRole('alert').allTextContents()).toContain(markedFields);
      await noApiWords(page);
      expect(await screenProblems(page, `forms-template-error-${width}`)).toEqual([]);
      expect(await stored()).toBe(0);

      await url.fill('https://shop.example/sale');
      await page.getByRole('button', { name: 'Save template' }).click();
      await until(() => page.locator('.toast').textContent()).toBe('Created "Spring sale": open it from the list.');
      expect(await page.getByLabel('Name').inputValue()).toBe('');
      expect(await page.getByLabel('Body').inputValue()).toBe('');
      expect(await page.getByRole('heading', { name: 'New template' }).count()).toBe(1);
      expect(await stored()).toBe(1);

      await page.getByRole('button', { name: 'Spring sale' }).click();
      // The id is for engineers: folded under Advanced.
      expect(await page.getByTestId('api-id').isVisible()).toBe(false);
      // The preview's device picker has an Advanced fold of its own.
      await page.getByRole('form', { name: 'Edit template' }).getByText('Advanced', { exact: true }).click();
      await page.getByTestId('api-id').waitFor();
      await deleteAfterKeeping(page, stored, /Journeys that use it will send nothing/);
      await until(() => page.locator('.toast').textContent()).toBe('Deleted "Spring sale".');
      expect(await screenProblems(page, `forms-template-deleted-${width}`)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("in-app messages: a button's error on the button's field, a create that clears the editor, a delete", async () => {
    const owner = await harness.ingress.createProject('team');
    const stored = async () =>
      (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/in-app-messages`, { key: owner.apiKey }))
        .body.data.length;
    const { page, close } = await openConsole(width);
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'in-app-messages');
      await page.getByLabel('Name', { exact: true }).fill('Winter sale');
      await page.getByLabel('Body').fill('20% off today');
      await page.getByLabel('Event type').fill('opened_menu');
      await page.getByRole('button', { name: 'Add a button' }).click();
      // The button's id is set for it, under Advanced.
      expect(await page.getByLabel('Button id').isVisible()).toBe(false);
      expect(await page.getByLabel('Button id').inputValue()).toBe('button-1');
      await page.getByLabel('Button text').fill('Shop now');
      await page.getByLabel('Button action').selectOption('url');
      await page.getByLabel('Button URL').fill('ftp://shop.example');
      await page.getByRole('button', { name: 'Save in-app message' }).click();
      const buttonUrl = page.getByLabel('Button URL');
      await until(() => fieldError(page, buttonUrl)).toBe(
        'Give the web address (http:// or https://) this button opens.',
      );
      expect(await page.getByRole('alert').allTextContents()).toContain(markedFields);
      await noApiWords(page);
      expect(await screenProblems(page, `forms-in-app-error-${width}`)).toEqual([]);

      await buttonUrl.fill('https://shop.example/sale');
      await page.getByRole('button', { name: 'Save in-app message' }).click();
      await until(() => page.locator('.toast').textContent()).toBe('Created "Winter sale": open it from the list.');
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
      expect(await page.getByLabel('Button URL').count()).toBe(0);
      expect(await stored()).toBe(1);

      await page.getByRole('button', { name: 'Winter sale' }).click();
      await deleteAfterKeeping(page, stored, /Devices stop being offered it/);
      await until(() => page.locator('.toast').textContent()).toBe('Deleted "Winter sale".');
    } finally {
      await close();
    }
  });

  it('segments: a condition refused on its condition in words, a create that clears the builder', async () => {
    const owner = await harness.ingress.createProject('team');
    const stored = async () =>
      (await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/segments`, { key: owner.apiKey })).body
        .data.length;
    const { page, close } = await openConsole(width);
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'segments');
      // The live count is refused as the save would be.
      await page.getByLabel('Kind').selectOption('event');
      await page.getByLabel('Times').fill('-1');
      await page.getByLabel('Event type').fill('purchase');
      const condition = page.getByRole('group', { name: 'Condition 1' });
      await until(() => fieldError(page, condition)).toBe('The number of times must be a whole number, 0 or more.');
      await noApiWords(page);
      expect(await screenProblems(page, `forms-segment-error-${width}`)).toEqual([]);

      await page.getByLabel('Times').fill('3');
      await page.getByLabel('Name').fill('Bought three times');
      await page.getByRole('button', { name: 'Save segment' }).click();
      await until(() => page.locator('.toast').textContent()).toBe(
        'Created "Bought three times": open it from the list.',
      );
      expect(await page.getByLabel('Name').inputValue()).toBe('');
      expect(await page.getByLabel('Kind').inputValue()).toBe('tag');
      expect(await stored()).toBe(1);
    } finally {
      await close();
    }
  });

  it("send: a button's link refused on its field in words", async () => {
    const { page, close } = await openConsole(width);
    try {
      await signIn(page);
      await show(page, 'send');
      await page.getByLabel('Content from').selectOption('inline');
      await page.getByLabel('Body').fill('Hello');
      await page.getByRole('button', { name: 'Add a button' }).click();
      await page.getByLabel('Button 1 text').fill('Shop');
      await page.getByLabel('URL', { exact: true }).last().fill('javascript:alert(1)');
      await page.getByLabel('Send to').selectOption('device');
      await page.getByLabel('Device id', { exact: true }).fill('vip-1');
      await until(() => page.getByTestId('audience-count').textContent()).toBe('1 subscribed device');
      await page.getByRole('button', { name: 'Send…' }).click();
      await page.getByRole('button', { name: 'Confirm send' }).click();
      const buttonUrl = page.locator('#field-button-0-url');
      await until(() => fieldError(page, buttonUrl)).toBe(
        'Give the page or app link this button opens, up to 2,048 characters; javascript: links are refused.',
      );
      await noApiWords(page);
      expect(await screenProblems(page, `forms-send-error-${width}`)).toEqual([]);
    } finally {
      await close();
    }
  });
});
