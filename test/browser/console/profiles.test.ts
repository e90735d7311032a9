import { describe, expect, it } from 'vitest';
import { sendNotification, waitUntilCompleted } from '../../support/delivery-harness.ts';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's profiles of devices and users", { timeout: 120_000 }, () => {
  it('opens a device from the delivery log, with its platform, language, zone and why it unsubscribed in words', async () => {
    const owner = await harness.ingress.createProject('team');
    const registered = await harness.ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/seoul`, {
      key: owner.clientKey,
      body: {
        platform: 'android',
        pushToken: 'unregistered-seoul',
        userId: 'min',
        tags: { plan: 'pro' },
        language: 'ko',
        timezone: 'Asia/Seoul',
      },
    });
    expect(registered.status).toBe(200);
    const id = await sendNotification(harness.ingress, owner, {
      targetType: 'device',
      targetIds: ['seoul'],
      body: 'Hello',
    });
    await waitUntilCompleted(harness.ingress, owner, id);
    const { page, close } = await openConsole(390);
    try {
      await signIn(page, owner.apiKey);
      await page.goto(`${harness.ingress.baseUrl}/console#/notifications/${id}`);
      await page.getByTestId('delivery-log').getByRole('link', { name: 'seoul' }).click();
      expect(new URL(page.url()).hash).toBe('#/devices/seoul');
      const profile = page.locator('article[data-device="seoul"]');
      await until(() => profile.locator('.facts').textContent()).toContain(
        'PlatformAndroidLanguagekoTime zoneAsia/Seoul',
      );
      expect(await profile.locator('.facts').textContent()).toContain('The app was uninstalled or its token expired');
      // Its user opens as a profile of every device of the user.
      await profile.getByRole('link', { name: 'min' }).click();
      expect(new URL(page.url()).hash).toBe('#/devices/user/min');
      await page.locator('article[data-device="seoul"]').getByTestId('tags').waitFor();
      expect(await page.getByLabel('User id').inputValue()).toBe('min');
    } finally {
      await close();
    }
  });

  it('opens a device from the events list and from the newest devices, with its recent events', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'events');
      await page.getByTestId('events-table').getByRole('link', { name: 'vip-2' }).first().click();
      const profile = page.locator('article[data-device="vip-2"]');
      await until(() => profile.getByTestId('recent-events').textContent()).toContain('purchase');
      expect(await profile.getByTestId('recent-events').textContent()).toContain('amount5');
      await show(page, 'devices');
      await page.getByTestId('newest-devices').getByRole('link', { name: 'regular' }).click();
      await page.locator('article[data-device="regular"]').waitFor();
      expect(new URL(page.url()).hash).toBe('#/devices/regular');
    } finally {
      await close();
    }
  });
});
