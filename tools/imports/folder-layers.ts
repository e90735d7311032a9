import { importCycles, type ImportGraph } from './import-graph.ts';

/**
 * The folders of src/ (and its top files) by rank, from the bottom up, as docs/architecture.md lists them. A file
 * imports from its own folder, from folders of its own rank or below, never from a rank above; and no folders import
 * one another round, within a rank or across ranks.
 */
export const folderRanks: readonly (readonly string[])[] = [
  // The base: what everything may use, importing nothing above it.
  ['errors.ts', 'config.ts', 'plans', 'infra'],
  // What is stored and what is sent: the validation schemas, the models and their keys.
  ['schemas', 'models', 'net', 'credentials', 'webpush'],
  // The engines every process holds: the push gateways and Liquid rendering.
  ['gateways', 'rendering'],
  ['deps.ts'],
  // A queue's contract: its job data, options and enqueue helper.
  ['queues'],
  // A folder per concept.
  [
    'conditions',
    'events',
    'segments',
    'targets',
    'devices',
    'device-files',
    'templates',
    'in-app',
    'journeys',
    'notifications',
    'projects',
    'keys',
    'rate-limit',
    'webhooks',
    'history',
    'overview',
    'user-tags',
    'maintenance',
    'metrics',
    'conversions',
    'experiments',
  ],
  // A worker's process: the send worker's fan-out, the deliver worker's runs, the event-ingest worker's jobs.
  ['fan-out', 'delivery', 'event-ingest'],
  // The processes' edges: the worker runtime, the ingress's context, HTTP and what it serves.
  ['open-deps.ts', 'worker-runtime', 'app-context.ts', 'auth', 'admin', 'http', 'routes', 'console', 'cors', 'web-sdk'],
  ['app.ts', 'server.ts'],
];

/** The folder of src/ a file is in (`src/delivery/x.ts` → `delivery`), its own name for a top file; null outside. */
export function srcFolder(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return null;
  return parts[1]!;
}

function rankOf(ranks: readonly (readonly string[])[]): Map<string, number> {
  return new Map(ranks.flatMap((folders, rank) => folders.map((folder) => [folder, rank] as const)));
}

/** The folders of src/ that hold code and have no rank. */
export function unrankedFolders(graph: ImportGraph, ranks = folderRanks): string[] {
  const ranked = rankOf(ranks);
  const folders = [...graph.keys()].map(srcFolder).filter((folder) => folder !== null && !ranked.has(folder));
  return [...new Set(folders)].sort() as string[];
}

/** Every import from a folder into a folder of a higher rank, as `file -> imported file`. */
export function upwardImports(graph: ImportGraph, ranks = folderRanks): string[] {
  const rank = rankOf(ranks);
  const rankOfFile = (file: string) => rank.get(srcFolder(file) ?? '') ?? -1;
  return [...graph].flatMap(([file, { files }]) =>
    srcFolder(file) === null
      ? []
      : files.filter((target) => rankOfFile(target) > rankOfFile(file)).map((target) => `${file} -> ${target}`),
  );
}

/** The folders of src/ that import one another round, each group as its folders (a pair, or more). */
export function folderCycles(graph: ImportGraph): string[][] {
  const folders: ImportGraph = new Map();
  for (const [file, { files }] of graph) {
    const folder = srcFolder(file);
    if (folder === null) continue;
    const imported = folders.get(folder) ?? { files: [], packages: [] };
    for (const target of files.map(srcFolder)) {
      if (target !== null && target !== folder && !imported.files.includes(target)) imported.files.push(target);
    }
    folders.set(folder, imported);
  }
  return importCycles(folders);
}
