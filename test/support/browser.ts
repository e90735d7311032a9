import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { headlessChromiumArgs } from '../../local/services/chromium-flags.ts';

/** Headless Debian Chromium through playwright-core, found or installed by the global set-up. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: inject('chromiumPath'), headless: true, args: headlessChromiumArgs });
}

/** One browser for the test file, launched before its tests and closed after them; call the answer inside a test. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  return () => {
    if (browser === undefined) throw new Error('the browser is used before its beforeAll hook ran');
    return browser;
  };
}
