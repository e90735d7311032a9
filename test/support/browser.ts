import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { headlessChromiumArgs } from '../../local/services/chromium-flags.ts';

/** Headless Debian Chromium through playwright-core, found or installed by the global set-up. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: inject('chromiumPath'),
    headless: true,
    args: [...headlessChromiumArgs, ...extraArgs],
  });
}

/** One browser for the test file, launched before its tests and closed after them; call the answer inside a test. */
export function useBrowser(extraArgs: string[] = []): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(extraArgs);
  });
  afterAll(() => browser?.close());
  return () => {
    if (browser === undefined) throw new Error('the browser is used before its beforeAll hook ran');
    return browser;
  };
}
