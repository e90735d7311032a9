import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checks, printResult, runCheck } from './checks.ts';

/**
 * `npm test`: the suite and the checks at once. The checks run at a low priority, so they take the processor time the
 * suite leaves (it waits on servers, timers and its one-at-a-time files for much of its run) instead of half a
 * minute before its first test. Their outputs are printed after the suite's, and the run fails when the suite or any
 * check failed, naming the checks that did. Arguments go to `vitest run`.
 */
const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

const checkResults = Promise.all(checks().map((check) => runCheck(check, { nice: true })));
const suitePassed = await new Promise<boolean>((resolve) => {
  const suite = spawn(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
  suite.on('error', () => resolve(false));
  suite.on('close', (code) => resolve(code === 0));
});
const results = await checkResults;
process.stdout.write('\nChecks run beside the suite:\n');
for (const result of results) printResult(result);
const failed = results.filter((result) => !result.passed).map((result) => result.name);
if (failed.length > 0) process.stdout.write(`\nnpm test failed: ${failed.join(', ')} failed\n`);
if (!suitePassed) process.stdout.write(`\nnpm test failed: the suite failed\n`);
process.exitCode = suitePassed && failed.length === 0 ? 0 : 1;
