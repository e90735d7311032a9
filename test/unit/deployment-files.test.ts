import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { readProcfile } from '../../local/start/procfile.ts';

const root = resolve(import.meta.dirname, '../..');
/** The deliver worker's heap is smaller, and its young generation capped as some others' are (the Procfile says why). */
const heapFlags: Record<string, string> = {
  'deliver.ts': '--max-old-space-size=192 --max-semi-space-size=32',
  'event-ingest.ts': '--max-old-space-size=256 --max-semi-space-size=16',
  'journey-steps.ts': '--max-old-space-size=256 --max-semi-space-size=16',
};
const workerHeapFlag = (file: string) => heapFlags[file] ?? '--max-old-space-size=256';
/** Every worker runs with at most four glibc malloc arenas (the Procfile says why). */
const workerCommand = (file: string) => `env MALLOC_ARENA_MAX=4 node ${workerHeapFlag(file)} workers/${file}`;
const read = (file: string) => readFileSync(resolve(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[] | string;
  environment?: Record<string, string>;
  ports?: string[];
  container_name?: string;
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const procfile = readProcfile(resolve(root, 'Procfile'));
const commandOf = (service: ComposeService) =>
  Array.isArray(service.command) ? service.command.join(' ') : service.command;
const packageJson = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const packageScripts = packageJson.scripts;
/** The folders of the checkout that the image runs (its COPY lines; checked below). */
const imageFolders = ['src', 'workers', 'bin', 'sandbox'];

/** Static imports and re-exports, side-effect imports and dynamic imports: their module specifier. */
const importSpecifier =
  /^(import|export)\s+(type\s)?[^;]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/**
 * Every package a TypeScript file under `folder` imports, by package name (`@scope/name` or `name`). Type stripping
 * erases `import type` and `export type` lines, so with `atRunTime` their packages do not count.
 */
function importedPackages(folder: string, { atRunTime = false } = {}): string[] {
  const files = readdirSync(resolve(root, folder), { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.tsx?$/.test(file),
  );
  return files.flatMap((file) =>
    [...read(join(folder, file)).matchAll(importSpecifier)]
      .filter((match) => !(atRunTime && match[2] !== undefined))
      .map((match) => (match[3] ?? match[4] ?? match[5])!)
      .filter((specifier) => !/^[./]|^node:/.test(specifier) && !builtinModules.includes(specifier))
      .map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
  );
}

describe('deployment files', () => {
  it('the compose file runs exactly the Procfile processes, with the same commands, from the app image', () => {
    const appServices = Object.entries(compose.services).filter(
      ([name, service]) => service.build === '.' && name !== 'sandbox',
    );
    expect(Object.fromEntries(appServices.map(([name, service]) => [name, commandOf(service)]))).toEqual(
      Object.fromEntries(procfile.map((entry) => [entry.name, entry.command])),
    );
  });

  it('every worker entry has its Procfile line and npm script, and the Procfile has the ingress as web', () => {
    const workerFiles = readdirSync(resolve(root, 'workers')).filter((file) => file.endsWith('.ts'));
    expect(
      procfile
        .filter((entry) => entry.name.startsWith('worker-'))
        .map((entry) => entry.command)
        .sort(),
    ).toEqual(workerFiles.map(workerCommand).sort());
    for (const file of workerFiles)
      expect(packageScripts[`worker:${file.replace(/\.ts$/, '')}`]).toBe(workerCommand(file));
    expect(procfile.find((entry) => entry.name === 'web')?.command).toBe(packageScripts.ingress);
  });

  it('workers scale with --scale: no fixed container names or published ports', () => {
    for (const [name, service] of Object.entries(compose.services).filter(([serviceName]) =>
      serviceName.startsWith('worker-'),
    )) {
      expect(service.container_name, name).toBeUndefined();
      expect(service.ports, name).toBeUndefined();
      expect(service.environment?.REDIS_URL, name).toBe('redis://redis:6379');
    }
  });

  it('runs MongoDB 8, Redis 7 with its append-only file, and the sandbox gateways as npm run sandbox does', () => {
    expect(compose.services.mongo?.image).toBe('mongo:8');
    expect(compose.services.redis?.image).toBe('redis:7');
    expect(commandOf(compose.services.redis!)).toMatch(/--appendonly yes/);
    expect(commandOf(compose.services.sandbox!)).toBe(packageScripts.sandbox);
    expect(compose.services['worker-deliver']?.environment?.SANDBOX_HOST).toBe('sandbox');
  });

  it('the image copies only what production runs: each deployed or operator command, no tests, tools or local servers', () => {
    // The last stage is the image; a COPY --from takes a build stage's output, not a file of the checkout.
    const imageCopies = read('Dockerfile')
      .split(/^FROM /m)
      .at(-1)!
      .split('\n')
      .filter((line) => line.startsWith('COPY ') && !line.startsWith('COPY --from='))
      .flatMap((line) => line.trim().split(/\s+/).slice(1, -1));
    expect(imageCopies.sort()).toEqual(
      // The typed client's manifest: npm ci installs the workspaces the lock file names.
      [
        'package.json',
        'package-lock.json',
        'clients/node/package.json',
        'Procfile',
        'tsconfig.json',
        ...imageFolders,
      ].sort(),
    );
    const operatorCommands = Object.entries(packageScripts)
      .filter(([name]) => name.startsWith('project:'))
      .map(([, command]) => command);
    expect(operatorCommands.length).toBeGreaterThan(0);
    for (const command of [
      ...procfile.map((entry) => entry.command),
      commandOf(compose.services.sandbox!)!,
      ...operatorCommands,
    ]) {
      const file = command.split(' ').at(-1)!;
      expect(
        imageCopies.some((source) => file.startsWith(`${source}/`)),
        `${command} runs a file the image has`,
      ).toBe(true);
    }
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['test', 'tools', 'local']));
  });

  it('the production dependencies are exactly the packages that the code in the image imports', () => {
    // The image installs with --omit=dev: a package missing here breaks it, one too many only makes it larger.
    const imported = new Set(imageFolders.flatMap((folder) => importedPackages(folder, { atRunTime: true })));
    expect(Object.keys(packageJson.dependencies).sort()).toEqual([...imported].sort());
  });

  it('every package the tests, tools, local servers and browser code import is declared', () => {
    // An undeclared package works only while another dependency happens to bring it, at whatever version that is.
    const declared = new Set([...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)]);
    const undeclared = new Set(
      ['test', 'tools', 'local', 'web', ...imageFolders]
        .flatMap((folder) => importedPackages(folder))
        .filter((name) => !declared.has(name)),
    );
    expect([...undeclared]).toEqual([]);
  });

  it('the image is node:24-slim and runs as a user other than root', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:24-slim$/m);
    const users = [...dockerfile.matchAll(/^USER (\S+)$/gm)].map((match) => match[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)$/);
  });
});
