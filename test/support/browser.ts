import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser } from 'playwright-core';

/** Headless Debian Chromium through playwright-core, found or installed, and its arguments made, by the global set-up. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: inject('chromiumPath'),
    headless: true,
    args: [...inject('chromiumArgs'), ...extraArgs],
  });
}

/**
 * One browser per test process and set of arguments: where a process runs several files on the modules it has loaded
 * (vitest.config.ts), the files after the first take it over rather than starting Chromium again. Each file starts
 * from a browser with no page open, as a fresh one has; playwright-core stops it when the process exits.
 */
const shared = new Map<string, Promise<Browser>>();

async function sharedBrowser(extraArgs: string[]): Promise<Browser> {
  const key = extraArgs.join('\n');
  const running = shared.get(key);
  if (running !== undefined) {
    const browser = await running.catch(() => undefined);
    if (browser?.isConnected()) return browser;
  }
  const launched = launchBrowser(extraArgs);
  shared.set(key, launched);
  return launched;
}

/** The browser for the test file, ready before its tests; its pages are closed after them. Call the answer inside a test. */
export function useBrowser(extraArgs: string[] = []): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await sharedBrowser(extraArgs);
  });
  afterAll(async () => {
    if (browser?.isConnected()) await Promise.all(browser.contexts().map((context) => context.close()));
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is used before its beforeAll hook ran');
    return browser;
  };
}
