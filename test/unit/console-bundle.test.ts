import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole, type ConsoleBundle } from '../../web/console/build.ts';
import { screenTitles } from '../../web/console/screen-titles.ts';

const firstLoadBudget = 40 * 1024;

describe('the console bundle', () => {
  let outdir: string;
  let bundle: ConsoleBundle;
  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'console-bundle-'));
    bundle = await buildConsole(outdir);
  });
  afterAll(() => rm(outdir, { recursive: true, force: true }));

  it(`loads under ${firstLoadBudget / 1024} KB of JavaScript gzipped before it draws the sign-in`, async () => {
    const sizes = await Promise.all(
      bundle.firstLoad.map(async (file) => gzipSync(await readFile(join(outdir, file))).length),
    );
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(firstLoadBudget);
  });

  it('ships no server code: only types come from src/, and no schema library', () => {
    const serverInputs = Object.values(bundle.outputs)
      .flat()
      .filter((input) => input.startsWith('src/') || input.includes('/typebox/') || input.includes('@sinclair'));
    expect(serverInputs).toEqual([]);
  });

  it("loads each screen's code with its screen, none of it on the first load", () => {
    const firstLoadInputs = bundle.firstLoad.flatMap((file) => bundle.outputs[file] ?? []);
    const screenFiles = firstLoadInputs.filter((input) => input.startsWith('web/console/screens/'));
    expect(screenFiles).toEqual(['web/console/screens/index.ts']);
    for (const name of Object.keys(screenTitles)) {
      const chunk = Object.entries(bundle.outputs).find(([, inputs]) =>
        inputs.includes(`web/console/screens/${name}.tsx`),
      );
      expect(chunk, name).toBeDefined();
      expect(bundle.firstLoad).not.toContain(chunk![0]);
    }
  });
});
