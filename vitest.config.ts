import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { interleavedSequencer } from './test/support/interleaved-sequencer.ts';
import { oneAtATimeProject, parallelProject, sideBySideProject } from './test/support/suite-runs.ts';

/**
 * Every Node.js process of the run (the test workers, and the workers, commands and `npm start` the tests start, which
 * inherit it or get it from processEnv) keeps the code it compiled here, and the next process loading the same module
 * reads it instead of compiling it again: a process start costs about a third less CPU.
 */
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('.state/test/compile-cache', import.meta.url));

/**
 * Files that start processes or servers of their own, or stop servers mid-send, and time what follows. Among the
 * parallel files, four at a time, two of them once left a worker silent for 30 s and a send without a push for a
 * minute, so they run in two lanes, one file of each at a time, on servers of their own (every project runs the
 * global set-up; the servers a test stops are its own): after the other files in one `vitest run`, or, in `npm test`,
 * as a run of their own beside the parallel files' run, which runs at a lower priority (tools/checks/test.ts). A
 * worker runs its next file on the modules it has loaded, as the parallel files' do: a file loads the service in
 * about a second, which the one-at-a-time files paid one after another.
 *
 * One at a time: the fault tests that push a 10,000-device send, 10,000 journey travellers or a 100,000-row import
 * through a fault (a core or more of processor time each), and the tests that time a process's answer to a signal, a
 * kill or a lapsed lock to within seconds; beside one another on a loaded machine, both kinds missed their deadlines.
 * With them, the file that writes 18 MB of event counters to stream a segment past one command's size: on the servers
 * the parallel files share, its inserts held SecantusDB for seconds at a time and a console page beside it waited past
 * its 15 s.
 * Side by side: the others, which spend most of their time waiting for a clock (a minute to turn, a throttle, a TTL
 * sweep, a process or a cluster to start). The two are two lanes of one pool: a file holds its lane's lock while it
 * runs (test/support/one-at-a-time.ts, test/support/side-by-side.ts), so that a one-at-a-time file runs beside a
 * waiting file, never beside another of its own kind. The pool takes files in the sequencer's alternating order, so
 * the next file of each lane usually waits for its lock in a place of its own; a lane far ahead of the other can fill
 * the spare places with its waiting files and hold the other lane until its running file ends.
 */
const oneAtATime = [
  'test/faults/gateway-failures.test.ts',
  'test/faults/kill-deliver-worker.test.ts',
  'test/faults/kill-journey-worker.test.ts',
  'test/faults/journey-redis-restart.test.ts',
  'test/faults/kill-journey-push-step.test.ts',
  'test/faults/kill-experiment-workers.test.ts',
  'test/faults/kill-import-worker.test.ts',
  'test/faults/mongo-outage.test.ts',
  'test/faults/redis-restart.test.ts',
  'test/processes/fan-out-resume.test.ts',
  'test/processes/ingress-shutdown.test.ts',
  'test/processes/worker-processes.test.ts',
  'test/api/oversized-filter.test.ts',
];
const processAndFaultTests = ['test/processes/**/*.test.ts', 'test/faults/**/*.test.ts'];
/**
 * Files on the engine in the test's own process that also spend most of their time waiting for a clock (a minute to
 * turn, a delivery rate, a journey's waits, a lock to lapse): side by side too, where they keep the second of the two
 * slots busy for as long as the one-at-a-time files hold the first, rather than taking a slot of the parallel files'.
 * With them, the file that times 1,000 journey steps against §18's 10 s, which a parallel file's large send on the
 * shared SecantusDB would hold up.
 */
const waitingTests = [
  'test/api/delivery-rate.test.ts',
  'test/api/delivery-timing.test.ts',
  'test/api/journey-due-latency.test.ts',
  'test/api/journey-steps.test.ts',
  'test/api/replay.test.ts',
];
// Two run at once, one of each lane; the other two places hold files waiting for their lane's lock.
const processAndFaultWorkers = 4;

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Twice eventually's default wait: a test waits for a few effects in turn, on a machine that may be loaded.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    sequence: { sequencer: interleavedSequencer(oneAtATimeProject, sideBySideProject) },
    projects: [
      {
        extends: true,
        // Four at once on two cores: a file waits much of its time (for a page, a poll, a server's answer), and two at
        // once left a quarter of the cores idle.
        test: {
          name: parallelProject,
          include: ['test/**/*.test.ts'],
          exclude: [...processAndFaultTests, ...oneAtATime, ...waitingTests],
          maxWorkers: 4,
          // A worker runs its files on the modules it has loaded rather than loading the service again for each
          // (90 s of the run): each file isolates itself by a database and key prefix of its own (testConfig), and
          // leaves process-wide state (process.env, timers, spies) as it found it.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: oneAtATimeProject,
          include: oneAtATime,
          setupFiles: ['test/support/one-at-a-time.ts'],
          maxWorkers: processAndFaultWorkers,
          // As the parallel files: each file leaves process-wide state as it found it. The set-up file still runs
          // before each file, so the lane's lock is each file's.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: sideBySideProject,
          include: [...processAndFaultTests, ...waitingTests],
          exclude: oneAtATime,
          setupFiles: ['test/support/side-by-side.ts'],
          maxWorkers: processAndFaultWorkers,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
