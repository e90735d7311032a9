import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import ts from 'typescript';

const here = import.meta.dirname;

const common: BuildOptions = {
  bundle: true,
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'warning',
};

/** /sdk/web.d.ts: the declarations of types.ts, and the module's exports typed by them. */
async function declarations(): Promise<string> {
  const source = await readFile(resolve(here, 'types.ts'), 'utf8');
  const { outputText } = ts.transpileDeclaration(source, { fileName: 'types.ts', compilerOptions: { strict: true } });
  return `${outputText}declare const PushEngine: PushEngineSdk;\nexport default PushEngine;\nexport { PushEngine };\n`;
}

/**
 * The files the ingress serves under /sdk/: web.js (an ES module), web.iife.js (for a script tag, with the
 * PushEngineDeferred queue), service-worker.js (for importScripts, so a classic script), in-app.js (the in-app renderer) and web.d.ts.
 */
export async function buildSdk(outdir: string): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await Promise.all([
    build({ ...common, entryPoints: { web: resolve(here, 'index.ts') }, outdir, format: 'esm' }),
    // Loaded by web.js and web.iife.js alike only when an in-app message is shown (CONTRACTS §16).
    build({ ...common, entryPoints: { 'in-app': resolve(here, 'in-app/renderer.ts') }, outdir, format: 'esm' }),
    build({ ...common, entryPoints: { 'web.iife': resolve(here, 'script-tag.ts') }, outdir, format: 'iife' }),
    build({
      ...common,
      entryPoints: { 'service-worker': resolve(here, 'service-worker/service-worker.ts') },
      outdir,
      format: 'iife',
    }),
    declarations().then((text) => writeFile(resolve(outdir, 'web.d.ts'), text)),
  ]);
}
