import { describe, expect, it } from 'vitest';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Send screen: options and languages (CONTRACTS §14)", { timeout: 120_000 }, () => {
  it('sends with a priority, a TTL, a button and a Korean version, and previews which language a device gets', async () => {
    const owner = await harness.ingress.createProject('team');
    for (const [id, language] of [
      ['seoul', 'ko'],
      ['boston', 'en'],
    ])
      expect(
        (
          await harness.ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/${id}`, {
            key: owner.clientKey,
            body: { platform: 'android', pushToken: `console-options-${id}`, userId: 'options-user', language },
          })
        ).status,
      ).toBe(200);
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'send');
      await page.getByLabel('Title', { exact: true }).fill('Hello');
      await page.getByLabel('Body', { exact: true }).fill('Your order shipped');
      await page.getByRole('button', { name: 'Add a language' }).click();
      await page.getByLabel('Language 1 tag').fill('ko');
      await page.getByLabel('Language 1 body').fill('주문이 발송되었습니다');
      await page.getByRole('group', { name: 'Options' }).getByText('Advanced').click();
      await page.getByLabel('Priority').selectOption('normal');
      await page.getByLabel('TTL (seconds)').fill('600');
      await page.getByRole('button', { name: 'Add a button' }).click();
      // The button's id is set for it, and changed under the button's Advanced.
      const button = page.getByRole('group', { name: 'Button 1' });
      expect(await button.getByLabel('Button 1 id').isVisible()).toBe(false);
      await button.getByText('Advanced').click();
      expect(await page.getByLabel('Button 1 id').inputValue()).toBe('button-1');
      await page.getByLabel('Button 1 id').fill('track');
      await page.getByLabel('Button 1 text').fill('Track it');

      await page.getByRole('group', { name: 'Preview', exact: true }).getByText('Advanced').click();
      await page.getByLabel('Preview for device id').fill('seoul');
      await until(() => page.getByTestId('send-preview').textContent()).toContain('주문이 발송되었습니다');
      expect(await page.getByTestId('preview-language').textContent()).toBe("In ko, for this device's language");
      await page.getByLabel('Preview for device id').fill('boston');
      await until(() => page.getByTestId('preview-language').textContent()).toBe("In the message's own language");

      await page.getByLabel('Send to').selectOption('userId');
      await page.getByLabel('User id').fill('options-user');
      await page.getByRole('button', { name: 'Send…', exact: true }).click();
      await until(() => page.getByTestId('send-confirmation').textContent()).toBe(
        'Send it to 2 subscribed devices now?',
      );
      await page.getByRole('button', { name: 'Confirm send' }).click();
      await page.getByRole('status').filter({ hasText: 'Accepted as notification' }).waitFor();
      const payload = async (id: string) => {
        await until(() => harness.sandbox.deliveries(`console-options-${id}`).length, { timeout: 20_000 }).toBe(1);
        return harness.sandbox.deliveries(`console-options-${id}`)[0]!.payload as any;
      };
      const seoul = await payload('seoul');
      expect(seoul.notification).toEqual({ title: 'Hello', body: '주문이 발송되었습니다' });
      expect(seoul.android).toMatchObject({ ttl: '600s', priority: 'normal' });
      expect(JSON.parse(seoul.data.buttons)).toEqual([{ id: 'track', text: 'Track it' }]);
      expect((await payload('boston')).notification).toEqual({ title: 'Hello', body: 'Your order shipped' });
    } finally {
      await close();
    }
  });
});
