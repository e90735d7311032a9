import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { adminToken, hostileTag, until, show, useConsole } from '../../support/console.ts';

const { project, second, openConsole, signIn } = useConsole();

describe('every console screen', { timeout: 120_000 }, () => {
  it('is usable from the keyboard: Tab reaches the screens, Enter opens one and puts the focus on its heading', async () => {
    const { page, close } = await openConsole();
    try {
      await page.keyboard.press('Tab');
      await page.keyboard.type(project.apiKey);
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      const hasFocus = (locator: Locator) =>
        locator.evaluate((element) => element === element.ownerDocument.activeElement);
      const link = page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Events', exact: true });
      for (let presses = 0; presses < 20 && !(await hasFocus(link)); presses++) await page.keyboard.press('Tab');
      expect(await hasFocus(link)).toBe(true);
      await page.keyboard.press('Enter');
      await until(() => hasFocus(page.getByRole('heading', { level: 1, name: 'Events' }))).toBe(true);
    } finally {
      await close();
    }
  });

  it('skips to the content by moving the focus only: the screen and its unsaved edits stay', async () => {
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'templates');
      await page.getByLabel('Name').fill('Not saved');
      const skip = page.getByText('Skip to content');
      await skip.focus();
      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { level: 1 });
      await until(() => heading.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      expect(await heading.textContent()).toBe('Templates');
      expect(new URL(page.url()).hash).toBe('#/templates');
      expect(await page.getByLabel('Name').inputValue()).toBe('Not saved');
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });

  it('asks before a project switch, a sign-out, a closing tab or another screen drops a message or a journey not sent', async () => {
    const { page, dialogs, close } = await openConsole();
    try {
      await signIn(page, adminToken);
      const switcher = page.getByLabel('Project', { exact: true });
      const shownProject = await switcher.inputValue();
      await show(page, 'send');
      await page.getByLabel('Body').fill('A message typed, not sent');
      // Each question is dismissed: the message stays, and so does the project.
      await switcher.selectOption(second.projectId);
      expect(dialogs).toEqual(['Discard the changes you have not saved?']);
      expect(await switcher.inputValue()).toBe(shownProject);
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(dialogs).toHaveLength(2);
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Templates' }).click();
      await until(() => dialogs.length).toBe(3);
      await page.close({ runBeforeUnload: true });
      await until(() => dialogs.length).toBe(4);
      expect(dialogs[3]).toBe('');
      expect(page.isClosed()).toBe(false);
      expect(await page.getByLabel('Body').inputValue()).toBe('A message typed, not sent');

      await page.getByLabel('Body').fill('');
      await show(page, 'journeys');
      expect(dialogs).toHaveLength(4);
      await page.getByRole('link', { name: 'New journey' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Welcome series');
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Events' }).click();
      await until(() => dialogs.length).toBe(5);
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Welcome series');
    } finally {
      await close();
    }
  });

  it('shows hostile tag values and event data as text, and no script of theirs runs', async () => {
    const { page, dialogs, close } = await openConsole(390);
    try {
      await signIn(page);
      await show(page, 'devices');
      await page.getByLabel('Look up by').selectOption('deviceId');
      await page.getByLabel('Device id').fill('hostile');
      await page.getByRole('button', { name: 'Look up' }).click();
      await until(() => page.locator('article[data-device="hostile"]').getByTestId('tags').textContent()).toBe(
        `bio${hostileTag}`,
      );
      await show(page, 'events');
      await until(() => page.getByTestId('events-table').textContent(), { timeout: 10_000 }).toContain(hostileTag);
      expect(await page.locator('main img').count()).toBe(0);
      expect(dialogs).toEqual([]);
    } finally {
      await close();
    }
  });
});
