import type { TestProject } from 'vitest/node';
import { provideServices } from '../../local/services/provide-services.ts';
import { findOrInstallChromium } from '../../local/services/chromium.ts';
import { headlessChromiumArgsWithoutUnusedFeatures } from '../../local/services/chromium-flags.ts';
import { buildWebAssets } from '../../web/build.ts';
import { takeLaneLock } from './lane-lock.ts';
import { testStateDir, webBundlesBuiltEnv } from './suite-runs.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    mongoUrl: string;
    chromiumPath: string;
    chromiumArgs: string[];
  }
}

/** Another run's set-up may install Chromium and Redis with apt-get (up to 20 minutes each) and SecantusDB with pip. */
const setUpWaitMs = 50 * 60_000;

/**
 * One Redis and one MongoDB-wire server for each project of the run; each test file isolates itself by database and
 * key prefix. The set-ups of runs started together (npm test's two) take turns: two apt-get installs at once fail on
 * dpkg's lock.
 */
export default async function setup(project: TestProject) {
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor < 24) {
    throw new Error(
      `the tests run on Node.js 24 (this is ${process.version}); start them with npm test or npx vitest, which use node_modules/.bin/node`,
    );
  }
  const release = await takeLaneLock('global-set-up', {
    waitAtMostMs: setUpWaitMs,
    heldBy: "another run's global set-up did not end",
  });
  try {
    return await provideForProject(project);
  } finally {
    await release();
  }
}

async function provideForProject(project: TestProject) {
  if (process.env[webBundlesBuiltEnv] !== '1') await buildWebAssets((line) => process.stdout.write(`[web] ${line}\n`));
  const log = (line: string) => process.stdout.write(`[services] ${line}\n`);
  // Before the servers start, so that a failed install leaves nothing running.
  const chromiumPath = await findOrInstallChromium(log);
  project.provide('chromiumPath', chromiumPath);
  project.provide('chromiumArgs', await headlessChromiumArgsWithoutUnusedFeatures(chromiumPath));
  const services = await provideServices({ stateDir: testStateDir, log });
  process.stdout.write(`[services] ${services.path}\n`);
  project.provide('redisUrl', services.redisUrl);
  project.provide('mongoUrl', services.mongoUrl);
  return () => services.stop();
}
