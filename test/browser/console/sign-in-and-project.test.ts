import { describe, expect, it } from 'vitest';
import { adminToken, show, until, useConsole } from '../../support/console.ts';

const { harness, project, second, openConsole, signIn } = useConsole();

describe('the console sign-in and Project screen', { timeout: 120_000 }, () => {
  it('is served with a strict Content-Security-Policy, nosniff, no-cache for the page and immutable hashed assets', async () => {
    const page = await fetch(`${harness.ingress.baseUrl}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    // Its icon is inline, an image the policy allows: the browser asks for no /favicon.ico, which answered 404.
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    const script = /src="(\/console\/console-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${harness.ingress.baseUrl}${script}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('signs in with a server key; a wrong key shows the API error and nothing else; sign-out forgets the key', async () => {
    const { page, close } = await openConsole();
    try {
      await page.getByLabel('Server API key or ADMIN_TOKEN').fill('sk_wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.getByRole('alert').textContent()).toBe(
        'The API key is not valid; it may have been rotated.',
      );
      expect(await page.getByRole('navigation').count()).toBe(0);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

      await signIn(page);
      // The Overview opens after sign-in; the Project screen is one link away.
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
      await show(page, 'project');
      await until(() => page.locator('.facts').textContent()).toContain(project.projectId);
      expect(page.url()).not.toContain(project.apiKey);
      expect(await page.context().cookies()).toEqual([]);
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Server API key or ADMIN_TOKEN').waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      await close();
    }
  });

  it('opens the screen the address names when it changes just as the console appears after sign-in', async () => {
    const { page, close } = await openConsole();
    try {
      // A link followed (or an address typed) the moment the screens appear, before the console listened for it.
      await page.evaluate(`{
        const changeOnAppearing = new MutationObserver(() => {
          if (document.querySelector('nav[aria-label="Screens"]') === null) return;
          changeOnAppearing.disconnect();
          location.hash = '#/segments';
        });
        changeOnAppearing.observe(document.body, { childList: true, subtree: true });
      }`);
      await signIn(page);
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Segments');
    } finally {
      await close();
    }
  });

  it('signs in with a pasted key wrapped in invisible characters, and names a character no key holds', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page, `\u200B ${project.apiKey}\u200B\uFEFF\n`);
      await show(page, 'project');
      await until(() => page.locator('.facts').textContent()).toContain(project.projectId);
      expect(await page.evaluate(() => sessionStorage.getItem('pushengine.console.key'))).toBe(project.apiKey);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Server API key or ADMIN_TOKEN').fill(`sk_ab\u200Bcd`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.getByRole('alert').textContent()).toBe(
        'This is not an API key: it holds U+200B, which no key holds. Copy the key again, or type it.',
      );
    } finally {
      await close();
    }
  });

  it('with ADMIN_TOKEN sees every project and switches between them', async () => {
    const { page, close } = await openConsole();
    try {
      await signIn(page, adminToken);
      await show(page, 'project');
      const switcher = page.getByLabel('Project', { exact: true });
      await switcher.selectOption(second.projectId);
      await until(() => page.locator('.facts').textContent()).toContain(second.projectId);
      await until(() => page.locator('.facts').textContent()).toContain('100 requests per minute');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Server API key or ADMIN_TOKEN').waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      await close();
    }
  });
});
