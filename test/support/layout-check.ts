import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

const script = readFileSync(resolve(import.meta.dirname, 'in-page/layout-problems.js'), 'utf8');

/**
 * What a reader of the page would see as broken, measured in the page: the page wider than the window, two elements
 * drawn over each other, and a word split across two lines (ids, codes and URLs excepted: they have no words and
 * wrap anywhere). Sticky, fixed and absolutely placed elements (the action bar, a toast, the open menu) stand over the
 * content by design.
 */
export const layoutProblems = (page: Page): Promise<string[]> => page.evaluate(script);
