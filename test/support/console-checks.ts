import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { screenshots, until } from './console.ts';
import { layoutProblems } from './layout-check.ts';

/**
 * What a reader would see as broken on the page as it stands, once nothing is loading: the layout's problems and axe's
 * serious and critical violations, each named after `name`; a full-page screenshot `name`.png to look at.
 */
export async function screenProblems(page: Page, name: string): Promise<string[]> {
  await until(() => page.locator('[role=status]').filter({ hasText: 'Loading' }).count()).toBe(0);
  await page.screenshot({ path: resolve(screenshots, `${name}.png`), fullPage: true });
  return [...(await layoutProblems(page)), ...(await axeViolations(page))].map((problem) => `${name}: ${problem}`);
}
