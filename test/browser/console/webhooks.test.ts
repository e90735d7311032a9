import { describe, expect, it } from 'vitest';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, openConsole, signIn } = useConsole();

describe("the console's Webhooks screen", { timeout: 120_000 }, () => {
  it('creates an endpoint showing its secret once, shows who disabled it and why, enables, disables and deletes it', async () => {
    const owner = await harness.ingress.createProject('team');
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'webhooks');
      // A refusal is said on its field, in words.
      await page.getByLabel('URL').fill('not an address');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const url = page.getByLabel('URL');
      const urlError = page.locator(`#${await url.getAttribute('id')}-error`);
      await until(() => urlError.textContent()).toBe(
        'This address cannot receive webhooks: give a full web address (https://…) this server may call.',
      );
      expect(await url.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByLabel('URL').fill('http://127.0.0.1:9/hooks');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secret = page.getByTestId('webhook-secret');
      await until(() => secret.textContent()).toMatch(/^whsec_/);
      await until(() => page.locator('.toast').textContent()).toBe(
        'Endpoint created: copy its signing secret now, as it is shown once.',
      );
      // The form is blank for the next endpoint, and the secret has its copy button.
      expect(await page.getByLabel('URL').inputValue()).toBe('');
      await page.getByRole('button', { name: 'Copy signing secret' }).waitFor();
      const row = page.locator('tr[data-webhook]');
      await until(() => row.count()).toBe(1);
      const id = (await row.getAttribute('data-webhook'))!;
      await until(() => row.getByText('enabled', { exact: true }).count()).toBe(1);

      // The service disabled it after a 410: the console says so, with the time.
      await harness.ingress.context.models.WebhookEndpoint.updateOne(
        { _id: id },
        { $set: { enabled: false, disabledReason: 'the endpoint answered 410 Gone', disabledAt: new Date() } },
      );
      await show(page, 'templates');
      await show(page, 'webhooks');
      await until(() => row.getByText(/410 Gone/).count()).toBe(1);
      await row.getByRole('button', { name: 'Enable' }).click();
      await until(() => row.getByText('enabled', { exact: true }).count()).toBe(1);
      await row.getByRole('button', { name: 'Disable' }).click();
      await until(() => row.getByText(/by hand/).count()).toBe(1);
      await until(() => page.locator('.toast').textContent()).toBe('Endpoint disabled: no event is posted to it.');
      const stored = await harness.ingress.request('GET', `/v1/projects/${owner.projectId}/webhooks/${id}`, {
        key: owner.apiKey,
      });
      expect(stored.body.data).toMatchObject({ enabled: false, disabledReason: null });

      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: /^Yes/ }).click();
      await until(() => row.count()).toBe(0);
      await until(() => page.locator('.toast').textContent()).toBe('Endpoint deleted.');
    } finally {
      await close();
    }
  });
});
