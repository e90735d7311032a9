import { describe, expect, it } from 'vitest';
import { until, show, useConsole } from '../../support/console.ts';

const { harness, project, openConsole, signIn } = useConsole();

describe("the console's Journeys screen", { timeout: 120_000 }, () => {
  it("names a journey's template, and says when it was deleted, where it showed the template's id", async () => {
    const owner = await harness.ingress.createProject('team');
    const base = `/v1/projects/${owner.projectId}`;
    const post = async (path: string, body: object) =>
      (await harness.ingress.request('POST', `${base}${path}`, { key: owner.apiKey, body })).body.data;
    const kept = await post('/templates', { name: 'Welcome', body: 'Hi' });
    const gone = await post('/templates', { name: 'Old offer', body: 'Gone' });
    for (const [name, template] of [
      ['Greet', kept],
      ['Offer', gone],
    ])
      await post('/journeys', { name, trigger: { event: 'signup' }, delaySeconds: 0, templateId: template.id });
    await harness.ingress.request('DELETE', `${base}/templates/${gone.id}`, { key: owner.apiKey });
    const { page, close } = await openConsole();
    try {
      await signIn(page, owner.apiKey);
      await show(page, 'journeys');
      const message = (name: string) => page.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2);
      await until(() => message('Greet').textContent()).toBe('template “Welcome”');
      expect(await message('Offer').textContent()).toBe(`template ${gone.id} (deleted: sends nothing)`);
    } finally {
      await close();
    }
  });

  it('creates a journey in the builder, then pauses, resumes and deletes it from the list', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page);
      await show(page, 'journeys');
      await page.getByRole('link', { name: 'New journey' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Thank buyers');
      await page.getByLabel('State').selectOption('active');
      await page.getByLabel('Enters on the event').fill('purchase');
      await page.getByLabel('New step').selectOption('push');
      await page.getByRole('button', { name: 'Add the step' }).click();
      await page.getByLabel('Body').fill('Thanks for {{ entry_event.data.amount }}');
      await page.getByRole('button', { name: 'Save journey' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Saved journey' }).textContent()).toBe(
        'Saved journey Thank buyers (version 1).',
      );
      // The new journey has its own address, which opens it again.
      await until(() => new URL(page.url()).hash).toMatch(/^#\/journeys\/[^/]+$/);
      await page.getByRole('link', { name: 'Back to the journeys' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Thank buyers' });
      await until(() => row.getByRole('cell').nth(3).textContent()).toBe('active');
      await row.getByRole('button', { name: 'Pause Thank buyers' }).click();
      await until(() => row.getByRole('cell').nth(3).textContent()).toBe('paused');
      const [journey] = (
        await harness.ingress.request('GET', `/v1/projects/${project.projectId}/journeys`, { key: project.apiKey })
      ).body.data;
      expect(journey).toMatchObject({
        name: 'Thank buyers',
        entry: { event: 'purchase' },
        status: 'paused',
        version: 2,
      });
      await row.getByRole('button', { name: 'Resume Thank buyers' }).click();
      await until(() => row.getByRole('cell').nth(3).textContent()).toBe('active');
      // Deleting asks first: keeping it changes nothing.
      await row.getByRole('button', { name: 'Delete Thank buyers' }).click();
      await row.getByRole('button', { name: 'Keep it' }).click();
      await row.getByRole('button', { name: 'Delete Thank buyers' }).click();
      expect(await row.getByText('Every traveller on it exits.').count()).toBe(1);
      await row.getByRole('button', { name: 'Yes, delete Thank buyers' }).click();
      await until(() => row.count()).toBe(0);
    } finally {
      await close();
    }
  });
});
