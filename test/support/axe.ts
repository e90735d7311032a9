import type { Page } from 'playwright-core';
import axe from 'axe-core';

/**
 * axe's violations on the page as `id targets…`, the serious and critical ones only unless `everyImpact`. axe is put in
 * a document once and run there: @axe-core/playwright evaluated its 550 KB in the page twice per check and finished
 * each check in a blank page of its own (a renderer process), to reach frames of other origins, which neither the
 * console nor the SDK's messages have; that was a third of the browser tests' Chromium CPU.
 */
export async function axeViolations(page: Page, { everyImpact = false } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source);
  const results = await page.evaluate(() => (globalThis as unknown as { axe: typeof axe }).axe.run());
  return results.violations
    .filter((violation) => everyImpact || violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target).join(' ')}`);
}
