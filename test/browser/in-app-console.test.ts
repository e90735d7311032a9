import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { axeViolations } from '../support/axe.ts';
import { useBrowser } from '../support/browser.ts';
import { eventually } from '../support/eventually.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });
const browser = useBrowser();

describe('console: in-app messages screen (CONTRACTS §12, §16)', { timeout: 60_000 }, () => {
  it('creates a message with the editor, previews it with the SDK renderer and lists it with its status and stats', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await page.goto(`${ingress.baseUrl}/console#/in-app-messages`);
      await page.getByLabel('Server API key or ADMIN_TOKEN').fill(project.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'In-app messages' }).waitFor();

      await page.getByLabel('Name', { exact: true }).fill('spring sale');
      await page.getByLabel('Layout').selectOption('banner');
      await page.getByLabel('Title').fill('<b>Spring</b> sale');
      await page.getByLabel('Body').fill('20% off today');
      await page.getByRole('button', { name: 'Add a button' }).click();
      await page.getByLabel('Button text').fill('Shop now');
      await page.getByLabel('Button action').selectOption('url');
      await page.getByLabel('Button URL').fill('javascript:alert(1)');
      await page.getByLabel('Event type').fill('opened_menu');
      await page.getByRole('button', { name: 'Save in-app message' }).click();
      await page.getByText('Give the web address (http:// or https://) this button opens.').waitFor();

      const preview = page.getByTestId('in-app-preview').getByRole('dialog', { name: '<b>Spring</b> sale' });
      await preview.waitFor();
      expect(await preview.getByRole('button', { name: 'Shop now' }).count()).toBe(1);

      await page.getByLabel('Button URL').fill('https://shop.example/sale');
      await page.getByRole('button', { name: 'Save in-app message' }).click();
      await page.getByRole('status').filter({ hasText: 'Created "spring sale"' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: 'spring sale' });
      await eventually(async () => expect(await row.textContent()).toContain('active'));
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        'spring sale',
        'active',
        'Once per device',
        '0',
        '0',
        '0',
      ]);
      expect(await axeViolations(page)).toEqual([]);
      expect(alerts).toEqual([]);

      const stored = await ingress.request('GET', `/v1/projects/${project.projectId}/in-app-messages`, {
        key: project.apiKey,
      });
      expect(stored.body.data[0]).toMatchObject({
        name: 'spring sale',
        layout: 'banner',
        buttons: [{ id: 'button-1', text: 'Shop now', action: 'url', url: 'https://shop.example/sale' }],
        trigger: { event: 'opened_menu' },
        frequency: 'once',
      });
    } finally {
      await context.close();
    }
  });
});
