import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { screenshots, until } from './console.ts';
import { layoutProblems } from './layout-check.ts';

/**
 * What a reader would see as broken on the page as it stands, once nothing is loading: the layout's problems and axe's
 * serious and critical violations, each named after `name`; a full-page screenshot `name`.png to look at.
 */
export async function screenProblems(page: Page, name: string): Promise<string[]> {
  await until(() => page.locator('[role=status]').filter({ hasText: 'Loading' }).count()).toBe(0);
  await page.screenshot({ path: resolve(screenshots, `${name}.png`), fullPage: true });
  const axe = await new AxeBuilder({ page }).analyze();
  return [
    ...(await layoutProblems(page)),
    ...axe.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target).join(' ')}`),
  ].map((problem) => `${name}: ${problem}`);
}
