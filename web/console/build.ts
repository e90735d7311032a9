import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';

/** Where the ingress serves the console's files from; index.html points at them by absolute path. */
export const consoleBasePath = '/console/';

const favicon = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="4" fill="#2457c5"/><circle cx="8" cy="8" r="3.5" fill="#fff"/></svg>',
)}`;

function indexHtml(script: string, stylesheet: string | undefined, preloads: string[]): string {
  // No inline script or style: the Content-Security-Policy of the console allows neither.
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Push console</title>',
    // Inline, so that the browser asks for no /favicon.ico, which would answer 404 on every load.
    `<link rel="icon" href="${favicon}">`,
    stylesheet === undefined ? '' : `<link rel="stylesheet" href="${consoleBasePath}${stylesheet}">`,
    ...preloads.map((chunk) => `<link rel="modulepreload" href="${consoleBasePath}${chunk}">`),
    `<script type="module" src="${consoleBasePath}${script}"></script>`,
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
    '',
  ].join('\n');
}

/** What a browser loads before the console draws anything: the entry and the chunks it imports statically. */
export interface ConsoleBundle {
  /** The output files of the first load, relative to the output directory. */
  firstLoad: string[];
  /** Every JavaScript file written, relative to the output directory, with the source files bundled into it. */
  outputs: Record<string, string[]>;
}

function staticClosure(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const file of seen)
    for (const imported of metafile.outputs[file]?.imports ?? [])
      if (imported.kind === 'import-statement') seen.add(imported.path);
  return [...seen];
}

/**
 * The console as ES modules named by content hash, split so that each screen's code loads with its screen, its
 * stylesheet, and the index.html that loads them.
 */
export async function buildConsole(outdir: string): Promise<ConsoleBundle> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: { console: resolve(import.meta.dirname, 'main.tsx') },
    outdir,
    outbase: outdir,
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const relativeName = (file: string) => basename(file);
  // Each screen loaded by import() is an entry point of its own in the metafile: the console's is main.tsx.
  const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith('main.tsx'));
  if (entry === undefined) throw new Error('esbuild wrote no console entry point');
  const [script, output] = entry;
  const firstLoad = staticClosure(result.metafile, script).map(relativeName);
  await writeFile(
    resolve(outdir, 'index.html'),
    indexHtml(relativeName(script), output.cssBundle && relativeName(output.cssBundle), firstLoad.slice(1)),
  );
  const outputs = Object.fromEntries(
    Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, { inputs }]) => [relativeName(file), Object.keys(inputs)]),
  );
  return { firstLoad, outputs };
}
