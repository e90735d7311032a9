import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { afterRefresh, screenshots } from './console.ts';
import { layoutProblems } from './layout-check.ts';

/** A step's card in the journey builder, and one of its live counts as shown. */
export const card = (page: Page, stepId: string) => page.locator(`[data-step="${stepId}"]`);
export const count = (page: Page, stepId: string, field: string) =>
  card(page, stepId).locator(`[data-count="${field}"] dd`).textContent();

/** A step's count as the journey page shows it after its next read of the journey, every 5 s (journey-page.tsx). */
export const countAfterRefresh = (page: Page, stepId: string, field: string) =>
  afterRefresh(page, 5000, () => count(page, stepId, field));

/** What a reader at that width would find broken, and what axe finds serious; the page's picture kept for a look. */
export async function problems(page: Page, name: string, width: number): Promise<string[]> {
  await page.screenshot({ path: resolve(screenshots, `${name}-${width}.png`), fullPage: true });
  return [...(await layoutProblems(page)), ...(await axeViolations(page, { everyImpact: true }))];
}
