import { describe, expect, it } from 'vitest';
import { show, until, useConsole } from '../../support/console.ts';
import { screenProblems } from '../../support/console-checks.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's device picker", { timeout: 180_000 }, () => {
  it.each([1280, 390])(
    'previews a template for a device found by id, user or tag, shown with its platform and language (%i px)',
    async (width) => {
      const { page, close } = await openConsole(width);
      try {
        await signIn(page);
        await show(page, 'templates');
        await page.getByLabel('Title').fill('Hi {{ device.tags.name }}');
        await page.getByLabel('Body').fill('Your group: {{ device.tags.group }}');
        const choices = page.getByTestId('template-preview-choices');
        // Nothing typed: the newest devices, each with which phone it is.
        await until(() => choices.getByRole('listitem').count()).toBeGreaterThan(0);

        await page.getByLabel('Id starts with').fill('vip-');
        await until(() => choices.getByRole('button').allTextContents()).toEqual(['vip-1', 'vip-2', 'vip-gone']);
        expect(await choices.getByRole('listitem').nth(1).textContent()).toContain('iOS · language unknown');
        await choices.getByRole('button', { name: 'vip-2' }).click();
        const preview = page.getByTestId('template-preview');
        await until(() => preview.locator('strong').textContent()).toBe('Hi Grace');
        expect(await page.getByTestId('template-preview-picked').textContent()).toBe('Previewing for vip-2 Clear');
        // The raw id, for an engineer, is folded away under Advanced.
        expect(await page.getByLabel('Preview for device id').isVisible()).toBe(false);
        expect(await page.getByLabel('Preview for device id').inputValue()).toBe('vip-2');
        expect(await choices.getByRole('button', { name: 'vip-2' }).getAttribute('aria-pressed')).toBe('true');

        await page.getByLabel('Find by').selectOption('user');
        await page.getByLabel('User id').fill('console-user');
        await until(() => choices.getByRole('button').allTextContents()).toEqual(['vip-1']);
        expect(await choices.getByRole('listitem').textContent()).toContain(
          'Android · language unknown · user console-user',
        );
        await choices.getByRole('button', { name: 'vip-1' }).click();
        await until(() => preview.locator('strong').textContent()).toBe('Hi Ada');

        await page.getByLabel('Find by').selectOption('tag');
        await page.getByLabel('Tag key').fill('group');
        await page.getByLabel('Tag value').fill('regular');
        await until(() => choices.getByRole('button').allTextContents()).toEqual(['regular']);
        await choices.getByRole('button', { name: 'regular' }).click();
        await until(() => preview.locator('p').textContent()).toBe('Your group: regular');
        expect(await screenProblems(page, `device-picker-templates-${width}`)).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it('previews a send for the device picked, in its language', async () => {
    const owner = await harness.ingress.createProject('team');
    const register = await harness.ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/seoul-1`, {
      key: owner.clientKey,
      body: { platform: 'ios', pushToken: 'picker-seoul', language: 'ko', tags: { name: 'Minji' } },
    });
    expect(register.status).toBe(200);
    const { page, close } = await openConsole(390);
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Title').fill('Hi {{ device.tags.name }}');
      await page.getByLabel('Body').fill('The winter sale starts now');
      const choices = page.getByTestId('preview-choices');
      await page.getByLabel('Id starts with').fill('seoul');
      await until(() => choices.getByRole('button').allTextContents()).toEqual(['seoul-1']);
      expect(await choices.getByRole('listitem').textContent()).toContain('iOS · language ko · no user id');
      await choices.getByRole('button', { name: 'seoul-1' }).click();
      const ios = page.getByTestId('send-preview').locator('[data-platform="ios"]');
      await until(() => ios.locator('.push-text strong').textContent()).toBe('Hi Minji');
      expect(await screenProblems(page, 'device-picker-send-390')).toEqual([]);
    } finally {
      await close();
    }
  });
});
