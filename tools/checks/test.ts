import {
  oneAtATimeProject,
  parallelProject,
  sideBySideProject,
  webBundlesBuiltEnv,
} from '../../test/support/suite-runs.ts';
import { buildWebAssets } from '../../web/build.ts';
import { checks, printResult, runCheck } from './checks.ts';
import { lowPriority } from './spawn-node.ts';
import { startVitestRun } from './vitest-runs.ts';

/**
 * `npm test`: the suite and the checks at once. The checks run at a low priority, as the parallel files do, rather
 * than for half a minute before the first test. Their outputs are printed after the suite's, and the run fails when
 * the suite or any check failed, naming the checks that did. Arguments go to `vitest run`.
 */
const args = process.argv.slice(2);
const checkResults = Promise.all(checks().map((check) => runCheck(check, { nice: true })));
const suitePassed = args.length > 0 ? await startVitestRun(args).passed : await runWholeSuite();
const results = await checkResults;
process.stdout.write('\nChecks run beside the suite:\n');
for (const result of results) printResult(result);
const failed = results.filter((result) => !result.passed).map((result) => result.name);
if (failed.length > 0) process.stdout.write(`\nnpm test failed: ${failed.join(', ')} failed\n`);
if (!suitePassed) process.stdout.write(`\nnpm test failed: the suite failed\n`);
process.exitCode = suitePassed && failed.length === 0 ? 0 : 1;

/**
 * The whole suite as two runs at once: the lanes' files (vitest.config.ts), which time processes and faults and
 * wait for clocks for about two fifths of their run, at the normal priority, and the parallel files at a low one,
 * taking the processor time the lanes leave. One run would hold the lanes until the parallel files end, and leave
 * most of a core idle while they run.
 */
async function runWholeSuite(): Promise<boolean> {
  try {
    await buildWebAssets((line) => process.stdout.write(`[web] ${line}\n`));
  } catch (error) {
    process.stdout.write(`the web bundles did not build: ${error instanceof Error ? error.stack : String(error)}\n`);
    return false;
  }
  const env = { ...process.env, [webBundlesBuiltEnv]: '1' };
  const lanes = startVitestRun(['--project', oneAtATimeProject, '--project', sideBySideProject], {
    env,
    output: 'held',
  });
  const parallel = startVitestRun(['--project', parallelProject], { env, niceness: lowPriority, output: 'live' });
  // Shown whole when either run ends, so that a run that hangs holds back no report of the other.
  void Promise.race([lanes.passed, parallel.passed]).then(() => lanes.showOutput());
  const [lanesPassed, parallelPassed] = await Promise.all([lanes.passed, parallel.passed]);
  const runs = [
    { name: "The lanes' run", run: lanes, passed: lanesPassed },
    { name: "The parallel files' run", run: parallel, passed: parallelPassed },
  ];
  for (const { name, run, passed } of runs)
    if (!passed) process.stdout.write(`\n${name} failed; its failures again:\n${run.failureReport()}\n`);
  return lanesPassed && parallelPassed;
}
