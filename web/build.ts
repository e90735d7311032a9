import { resolve } from 'node:path';
import { buildConsole } from './console/build.ts';
import { buildSdk } from './sdk/build.ts';

/** Where the browser bundles land; the ingress serves them from here. */
export const WEB_DIST = resolve(import.meta.dirname, '../dist/web');

/** Each browser bundle's build, given the output directory of its own under WEB_DIST. */
const BUILDERS: Array<{ name: string; build(outdir: string): Promise<unknown> }> = [
  { name: 'console', build: buildConsole },
  { name: 'sdk', build: buildSdk },
];

export async function buildWebAssets(log: (line: string) => void): Promise<void> {
  for (const builder of BUILDERS) {
    const started = performance.now();
    await builder.build(resolve(WEB_DIST, builder.name));
    log(`built ${builder.name} in ${Math.round(performance.now() - started)} ms`);
  }
}

if (import.meta.main) {
  await buildWebAssets((line) => process.stdout.write(`[web] ${line}\n`));
}
