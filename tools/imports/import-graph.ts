import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every folder of the server's code: what the cycle and layer checks read. The web client builds on its own. */
export const codeFolders = ['src', 'workers', 'bin', 'sandbox', 'local', 'tools'];

export interface ModuleImports {
  /** The project's files it imports, relative to the root; `import type` and `import()` count as imports too. */
  files: string[];
  /** The packages it imports, by name (`node:` built-ins included). */
  packages: string[];
}

/** File (relative to the root, with `/`) to what it imports. */
export type ImportGraph = Map<string, ModuleImports>;

function sourceFiles(root: string, folder: string): string[] {
  const entries = readdirSync(join(root, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function moduleImports(root: string, file: string): ModuleImports {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  const files: string[] = [];
  const packages: string[] = [];
  for (const { fileName: specifier } of importedFiles) {
    if (!specifier.startsWith('.')) {
      packages.push(packageName(specifier));
      continue;
    }
    const target = resolve(root, dirname(file), specifier);
    if (existsSync(target)) files.push(relative(root, target).replaceAll('\\', '/'));
  }
  return { files, packages };
}

/** The imports of every TypeScript file under the given folders of the root. */
export function importGraph(root: string, folders = codeFolders): ImportGraph {
  const files = folders.filter((folder) => existsSync(join(root, folder))).flatMap((f) => sourceFiles(root, f));
  return new Map(files.map((file) => [file, moduleImports(root, file)]));
}

/** Every file the entry loads, itself included, following the project's own imports. */
export function reachableFrom(graph: ImportGraph, entry: string): Set<string> {
  const reached = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    pending.push(...(graph.get(file)?.files ?? []));
  }
  return reached;
}

/**
 * The graph's import cycles, each as the files that import one another round (a strongly connected group of two or
 * more files, or a file importing itself), found by Tarjan's algorithm.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)?.files ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(next)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.files.includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
