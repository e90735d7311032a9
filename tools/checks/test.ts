import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildWebAssets } from '../../web/build.ts';
import { checks, printResult, runCheck } from './checks.ts';

/**
 * `npm test`: the suite and the checks at once. The checks run at a low priority, so they take the processor time the
 * suite leaves (it waits on servers, timers and its one-at-a-time files for much of its run) instead of half a
 * minute before its first test. Their outputs are printed after the suite's, and the run fails when the suite or any
 * check failed, naming the checks that did. Arguments go to `vitest run`.
 */
const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

/**
 * The whole suite runs as two vitest runs at once, each of vitest.config.ts's groups in a lane of its own: the
 * `parallel` files on two workers, and the process and fault files, which spend most of their run waiting on a clock,
 * a process or a lock (one at a time), beside them rather than after them. Given arguments (files, a project), one run.
 */
const lanes =
  process.argv.length > 2
    ? [[]]
    : [
        ['--project', 'parallel'],
        ['--project', 'one at a time', '--project', 'side by side'],
      ];

/** A lane's output, a line at a time, so that the two lanes' lines never mix within a line. */
function pipeLines(from: NodeJS.ReadableStream, to: NodeJS.WritableStream): void {
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => to.write(`${line}\n`));
}

function runLane(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    const lane = spawn(process.execPath, [vitest, 'run', ...args, ...process.argv.slice(2)], {
      stdio: ['inherit', 'pipe', 'pipe'],
      env,
    });
    pipeLines(lane.stdout, process.stdout);
    pipeLines(lane.stderr, process.stderr);
    lane.on('error', () => resolve(false));
    lane.on('close', (code) => resolve(code === 0));
  });
}

const checkResults = Promise.all(checks().map((check) => runCheck(check, { nice: true })));
// Built once here: the global set-up of each lane would otherwise remove and rewrite them while the other's browsers load them.
await buildWebAssets((line) => process.stdout.write(`[web] ${line}\n`));
const env = {
  ...process.env,
  TEST_WEB_BUILT: '1',
  ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
};
const suitePassed = (await Promise.all(lanes.map((args) => runLane(args, env)))).every(Boolean);
const results = await checkResults;
process.stdout.write('\nChecks run beside the suite:\n');
for (const result of results) printResult(result);
const failed = results.filter((result) => !result.passed).map((result) => result.name);
if (failed.length > 0) process.stdout.write(`\nnpm test failed: ${failed.join(', ')} failed\n`);
if (!suitePassed) process.stdout.write(`\nnpm test failed: the suite failed\n`);
process.exitCode = suitePassed && failed.length === 0 ? 0 : 1;
