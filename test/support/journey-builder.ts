import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { screenshots } from './console.ts';
import { layoutProblems } from './layout-check.ts';

/** A step's card in the journey builder, and one of its live counts as shown. */
export const card = (page: Page, stepId: string) => page.locator(`[data-step="${stepId}"]`);
export const count = (page: Page, stepId: string, field: string) =>
  card(page, stepId).locator(`[data-count="${field}"] dd`).textContent();

/** What a reader at that width would find broken, and what axe finds serious; the page's picture kept for a look. */
export async function problems(page: Page, name: string, width: number): Promise<string[]> {
  await page.screenshot({ path: resolve(screenshots, `${name}-${width}.png`), fullPage: true });
  return [...(await layoutProblems(page)), ...(await axeViolations(page, { everyImpact: true }))];
}
