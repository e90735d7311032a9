import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, reachableFrom } from '../../tools/imports/import-graph.ts';

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
