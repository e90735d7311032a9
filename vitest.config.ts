import { defineConfig } from 'vitest/config';

/**
 * Files that start processes or servers of their own, or stop servers mid-send, and time what follows: two of them at
 * once on two cores, beside the rest of the suite, once left a worker silent for 30 s and a send without a push for a
 * minute. They run after the other files, one at a time, on servers of their own (each project runs the global set-up).
 */
const oneAtATime = ['test/processes/**/*.test.ts', 'test/faults/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        // Two cores: more files at once only queue up behind the database.
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: oneAtATime,
          maxWorkers: 2,
          // A worker runs its files on the modules it has loaded rather than loading the service again for each
          // (90 s of the run): each file isolates itself by a database and key prefix of its own (testConfig), and
          // leaves process-wide state (process.env, timers, spies) as it found it.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'processes', include: oneAtATime, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
