import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from '../support/browser.ts';
import { useIngress } from '../support/ingress.ts';

/**
 * The console's address names its screen (#/send); any other name, the names every object inherits included, shows
 * the Project screen, as an unknown one does.
 */
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });
const browser = useBrowser();

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

async function openSignedIn(fragment: string): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser().newContext();
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${ingress.baseUrl}/console${fragment}`);
  await page.getByLabel('Server API key or ADMIN_TOKEN').fill(project.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return { page, errors, close: () => context.close() };
}

const inheritedNames = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

describe('console screen names', { timeout: 60_000 }, () => {
  it.each([...inheritedNames, 'no-such-screen'])(
    'opens the Project screen for #/%s, with no page error (it showed a blank screen or threw)',
    async (name) => {
      const { page, errors, close } = await openSignedIn(`#/${name}`);
      try {
        await expect.poll(() => heading(page)).toBe('Project');
        await expect.poll(() => page.locator('.facts').textContent()).toContain(project.projectId);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it('falls back to the Project screen when the address changes to an inherited name while signed in', async () => {
    const { page, errors, close } = await openSignedIn('#/send');
    try {
      await expect.poll(() => heading(page)).toBe('Send');
      for (const name of inheritedNames) {
        await page.goto(`${ingress.baseUrl}/console#/${name}`);
        await expect.poll(() => heading(page)).toBe('Project');
        await page.goto(`${ingress.baseUrl}/console#/send`);
        await expect.poll(() => heading(page)).toBe('Send');
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
