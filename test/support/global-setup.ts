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
  const services = await provideServices({
    stateDir: resolve(import.meta.dirname, '../../.state/test'),
    log: (line) => process.stdout.write(`[services] ${line}\n`),
  });
  process.stdout.write(`[services] ${services.path}\n`);
  project.provide('redisUrl', services.redisUrl);
  project.provide('mongoUrl', services.mongoUrl);
  return () => services.stop();
}
