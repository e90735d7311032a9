import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { provideServices } from '../../scripts/services/provide-services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    mongoUrl: string;
  }
}

/** One Redis and one MongoDB-wire server for the whole run; each test file isolates itself by database and key prefix. */
export default async function setup(project: TestProject) {
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor < 24) {
    throw new Error(`the tests run on Node.js 24 (this is ${process.version}); start them with npm test or npx vitest, which use node_modules/.bin/node`);
  }
  const services = await provideServices({
    stateDir: resolve(import.meta.dirname, '../../.state/test'),
    log: (line) => process.stdout.write(`[services] ${line}\n`),
  });
  process.stdout.write(`[services] ${services.path}\n`);
  project.provide('redisUrl', services.redisUrl);
  project.provide('mongoUrl', services.mongoUrl);
  return () => services.stop();
}
