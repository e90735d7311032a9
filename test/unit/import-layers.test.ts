import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, reachableFrom } from '../../tools/imports/import-graph.ts';
import { folderCycles, unrankedFolders, upwardImports } from '../../tools/imports/folder-layers.ts';

const graph = importGraph(process.cwd());

/**
 * The HTTP edge: the app, the server, the routes and what serves pages and assets. Everything else in src/ is domain,
 * queues, models or infra, which a worker loads without Fastify.
 */
const httpEdge = [
  /^src\/http\//,
  /^src\/routes\//,
  /^src\/app[^/]*\.ts$/,
  /^src\/server\.ts$/,
  /^src\/admin\//,
  /^src\/console\//,
  /^src\/web-sdk\//,
  /^src\/cors\//,
];
const isHttpEdge = (file: string) => httpEdge.some((pattern) => pattern.test(file));

describe('imports', () => {
  it('form no cycle, import() and import type included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('never run from domain code up into src/http or src/routes', () => {
    const upward = [...graph]
      .filter(([file]) => file.startsWith('src/') && !isHttpEdge(file))
      .flatMap(([file, { files }]) =>
        files.filter((target) => /^src\/(http|routes)\//.test(target)).map((target) => `${file} -> ${target}`),
      );
    expect(upward).toEqual([]);
  });

  it("keep the ingress free of the workers' code and the push gateways' SDKs", () => {
    const loaded = [...reachableFrom(graph, 'src/server.ts')];
    const workerCode = loaded.filter((file) =>
      /^src\/worker-runtime\/|-processor\.ts$|^src\/gateways\/.+\//.test(file),
    );
    const pushSdks = loaded.flatMap((file) =>
      graph.get(file)!.packages.filter((name) => /^(firebase-admin|@parse\/node-apn)$/.test(name)),
    );
    expect({ workerCode, pushSdks }).toEqual({ workerCode: [], pushSdks: [] });
  });
});

describe('folders', () => {
  it('each have a rank in docs/architecture.md, and import none of a higher rank', () => {
    expect({ unranked: unrankedFolders(graph), upward: upwardImports(graph) }).toEqual({ unranked: [], upward: [] });
  });

  it('never import one another, in pairs or round a longer circle', () => {
    expect(folderCycles(graph)).toEqual([]);
  });
});

describe('the folder check', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** A src/ tree of the given files, each importing the files listed with it. */
  function treeOf(files: Record<string, string[]>) {
    const root = mkdtempSync(join(tmpdir(), 'folder-layers-'));
    roots.push(root);
    for (const [file, imports] of Object.entries(files)) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      const lines = imports.map((target) => `import './${posix.relative(dirname(file), target)}';`);
      writeFileSync(join(root, file), lines.join('\n'));
    }
    return importGraph(root, ['src']);
  }

  it('finds a file of a lower folder importing one of a higher folder', () => {
    const planted = treeOf({
      'src/queues/send.ts': ['src/infra/redis.ts', 'src/delivery/delivery-run.ts'],
      'src/infra/redis.ts': [],
      'src/delivery/delivery-run.ts': ['src/queues/send.ts'],
    });
    expect(upwardImports(planted)).toEqual(['src/queues/send.ts -> src/delivery/delivery-run.ts']);
  });

  it('finds two folders of one rank importing each other, with no file cycle', () => {
    const planted = treeOf({
      'src/events/ingest.ts': ['src/journeys/store.ts'],
      'src/journeys/trigger.ts': ['src/events/data.ts'],
      'src/journeys/store.ts': [],
      'src/events/data.ts': [],
    });
    expect({ files: importCycles(planted), upward: upwardImports(planted) }).toEqual({ files: [], upward: [] });
    expect(folderCycles(planted)).toEqual([['events', 'journeys']]);
  });

  it('finds a folder with no rank', () => {
    expect(unrankedFolders(treeOf({ 'src/misc/helpers.ts': [] }))).toEqual(['misc']);
  });
});
