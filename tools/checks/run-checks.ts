import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Biome and the four TypeScript projects (the server, the console, the SDK and its service worker) side by side, each
 * one's output printed whole when it ends; fails if any fails. The server's is the longest: the others finish beside it.
 * `--only-types` leaves Biome out.
 */
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const biome = require.resolve('@biomejs/biome/bin/biome');
const checks: Array<{ name: string; args: string[] }> = [
  ...(process.argv.includes('--only-types') ? [] : [{ name: 'biome check .', args: [biome, 'check', '.'] }]),
  ...['.', 'web/console', 'web/sdk', 'web/sdk/service-worker'].map((project) => ({
    name: `tsc -p ${project}`,
    args: [tsc, '-p', project],
  })),
];

function run(check: { name: string; args: string[] }): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, check.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`${code === 0 ? 'passed' : 'FAILED'}: ${check.name}\n${Buffer.concat(output).toString()}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(checks.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
