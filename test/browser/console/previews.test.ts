import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { show, until, useConsole } from '../../support/console.ts';

const { openConsole, signIn } = useConsole();

const imageUrl = 'https://images.example/sale.png';
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAUCAIAAABwJOjsAAAAJElEQVR4nGNQSDgwIIhh1OJRi0ctHrV41OJRi0ctHrV45FgMALpP6C5orM3QAAAAAElFTkSuQmCC',
  'base64',
);

/** How wide the image is as the browser decoded it: 0 when it did not load (refused, broken). */
const naturalWidth = (image: { naturalWidth?: number }) => image.naturalWidth;

/** The image answers from the test, not the internet: whether the page may show it is still the console's CSP. */
const serveImage = (page: Page) =>
  page.route(imageUrl, (route) => route.fulfill({ body: png, contentType: 'image/png' }));

describe("the console's previews", { timeout: 120_000 }, () => {
  it('shows a push as iOS, Android and Chrome show it, rendered for a device, with its image and its buttons', async () => {
    const { page, close } = await openConsole();
    try {
      await serveImage(page);
      await signIn(page);
      await show(page, 'send');
      await page.getByLabel('Title').fill('Hi {{ device.tags.name }}');
      await page.getByLabel('Body').fill('The winter sale starts now');
      await page.getByLabel('Image URL').fill(imageUrl);
      for (const [index, text] of ['Shop now', 'Later'].entries()) {
        await page.getByRole('button', { name: 'Add a button' }).click();
        await page.getByLabel(`Button ${index + 1} text`).fill(text);
      }
      await page.getByRole('group', { name: 'Preview', exact: true }).getByText('Advanced').click();
      await page.getByLabel('Preview for device id').fill('vip-1');
      for (const platform of ['ios', 'android', 'chrome']) {
        const card = page.getByTestId('send-preview').locator(`[data-platform="${platform}"]`);
        await until(() => card.locator('.push-text strong').textContent()).toBe('Hi Ada');
        expect(await card.locator('.push-button').allTextContents()).toEqual(['Shop now', 'Later']);
        await until(() => card.locator('img').evaluate(naturalWidth)).toBe(40);
      }
    } finally {
      await close();
    }
  });

  it('shows an in-app banner with its image and both of its buttons inside its frame', async () => {
    const { page, close } = await openConsole(390);
    try {
      await serveImage(page);
      await signIn(page);
      await show(page, 'in-app-messages');
      await page.getByLabel('Layout').selectOption('banner');
      await page.getByLabel('Title').fill('Winter sale');
      await page.getByLabel('Body').fill('Everything twenty percent off this week');
      await page.getByLabel('Image URL').fill(imageUrl);
      for (const text of ['Open the shop', 'Not now']) {
        await page.getByRole('button', { name: 'Add a button' }).click();
        await page.getByLabel('Button text').last().fill(text);
      }
      const preview = page.getByTestId('in-app-preview');
      const dialog = preview.getByRole('dialog', { name: 'Winter sale' });
      await dialog.waitFor();
      await until(() => dialog.locator('img').evaluate(naturalWidth)).toBe(40);
      const frame = (await dialog.boundingBox())!;
      for (const name of ['Open the shop', 'Not now']) {
        const button = (await dialog.getByRole('button', { name }).boundingBox())!;
        expect(button.x + button.width, name).toBeLessThanOrEqual(frame.x + frame.width);
        expect(button.y + button.height, name).toBeLessThanOrEqual(frame.y + frame.height);
      }
    } finally {
      await close();
    }
  });
});
