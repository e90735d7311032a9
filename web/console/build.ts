import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { build } from 'esbuild';

/** Where the ingress serves the console's files from; index.html points at them by absolute path. */
export const consoleBasePath = '/console/';

const favicon = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="4" fill="#2457c5"/><circle cx="8" cy="8" r="3.5" fill="#fff"/></svg>',
)}`;

function indexHtml(script: string, stylesheet: string | undefined): string {
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
    `<script type="module" src="${consoleBasePath}${script}"></script>`,
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
    '',
  ].join('\n');
}

/** One minified ES module and its stylesheet, named by content hash, and the index.html that loads them. */
export async function buildConsole(outdir: string): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: { console: resolve(import.meta.dirname, 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint !== undefined);
  if (entry === undefined) throw new Error('esbuild wrote no console entry point');
  const [script, output] = entry;
  await writeFile(
    resolve(outdir, 'index.html'),
    indexHtml(basename(script), output.cssBundle && basename(output.cssBundle)),
  );
}
