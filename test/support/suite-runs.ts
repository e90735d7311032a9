import { resolve } from 'node:path';

/** Where the suite keeps what outlives a file: the servers' data, the lanes' locks, screenshots. */
export const testStateDir = resolve(import.meta.dirname, '../../.state/test');

/**
 * The suite's vitest projects (vitest.config.ts). `npm test` runs the parallel files and the two lanes as two runs at
 * once (tools/checks/test.ts), so both name them from here.
 */
export const parallelProject = 'parallel';
export const oneAtATimeProject = 'one at a time';
export const sideBySideProject = 'side by side';

/**
 * Set by `npm test` for the runs it starts, having built the web bundles once before them: a run's global set-up
 * builds them otherwise, and a build deletes the bundles first, under the other run's console tests.
 */
export const webBundlesBuiltEnv = 'TEST_WEB_BUNDLES_BUILT';
