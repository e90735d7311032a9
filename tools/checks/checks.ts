import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { lowPriority, spawnNode } from './spawn-node.ts';

export interface Check {
  name: string;
  args: string[];
}

export interface CheckResult {
  name: string;
  passed: boolean;
  output: string;
}

const require = createRequire(import.meta.url);
/**
 * TypeScript 7's native compiler (`typescript-native`) checks the projects; `typescript` 5.9 stays for the compiler API
 * that web/sdk/build.ts, tools/imports and openapi-typescript use, which 7 replaced. One checker: by default 7 splits
 * the files among four, each building again the types they share: on two cores the server's project took 35 s of CPU
 * (18 s by the clock) with four and 12 s (10 s) with one; TypeScript 5.9 took 30 s (21 s).
 */
const tsc = join(dirname(require.resolve('typescript-native/package.json')), 'bin', 'tsc');
const biome = require.resolve('@biomejs/biome/bin/biome');

/** Biome (unless `withBiome` is false) and the four TypeScript projects: the server, the console, the SDK and its service worker. */
export function checks({ withBiome = true } = {}): Check[] {
  return [
    ...(withBiome ? [{ name: 'biome check .', args: [biome, 'check', '.'] }] : []),
    ...['.', 'web/console', 'web/sdk', 'web/sdk/service-worker'].map((project) => ({
      name: `tsc -p ${project}`,
      args: [tsc, '--singleThreaded', '-p', project],
    })),
  ];
}

/** Runs one check to its end, its output gathered whole; `nice` runs it (and Biome's native binary) at `lowPriority`. */
export function runCheck(check: Check, { nice = false } = {}): Promise<CheckResult> {
  return new Promise((resolve) => {
    const child = spawnNode(check.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      niceness: nice ? lowPriority : undefined,
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => resolve({ name: check.name, passed: false, output: String(error) }));
    child.on('close', (code) =>
      resolve({ name: check.name, passed: code === 0, output: Buffer.concat(output).toString() }),
    );
  });
}

export function printResult(result: CheckResult): void {
  process.stdout.write(`${result.passed ? 'passed' : 'FAILED'}: ${result.name}\n${result.output}`);
}
