import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * Runs `load` (a module script's statements, with `root` the repository's file URL) in a Node process of its own and
 * answers the URL of every module Node loaded for it, recorded by a module hook.
 */
async function modulesLoadedBy(load: string): Promise<string[]> {
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ load: (url, context, nextLoad) => (loaded.push(url), nextLoad(url, context)) });
    const root = 'file://' + process.cwd() + '/';
    ${load}
    console.log(JSON.stringify(loaded));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout) as string[];
}

const processorModules = (loaded: string[]) =>
  loaded.filter((url) => /\/src\/.*-processor\.ts$/.test(url)).map((url) => url.slice(url.lastIndexOf('/') + 1));
const pushSdks = (loaded: string[]) =>
  loaded.filter((url) => /\/node_modules\/(firebase-admin|@parse\/node-apn)\//.test(url));

/** What a worker process of the queue loads for its processor. */
const modulesOfWorker = (queue: string) =>
  modulesLoadedBy(`
    const { queueProcessors } = await import(new URL('src/worker-runtime/processors.ts', root).href);
    await queueProcessors['${queue}']();
  `);

describe('the ingress', () => {
  it("loads no worker code and none of the push gateways' SDKs", async () => {
    const loaded = await modulesLoadedBy(`
      for (const entry of ['src/app.ts', 'src/app-context.ts', 'src/open-deps.ts']) await import(new URL(entry, root).href);
    `);
    expect(loaded.some((url) => url.endsWith('/src/app.ts'))).toBe(true);
    const workerCode = loaded.filter((url) => /\/src\/(worker-runtime\/|.*-processor\.ts$)/.test(url));
    expect({ workerCode, pushSdks: pushSdks(loaded) }).toEqual({ workerCode: [], pushSdks: [] });
  });
});

describe('a worker process', () => {
  it("loads its own queue's processor only: a webhook worker no push gateway SDK, a deliver worker no fan-out", async () => {
    const [webhook, deliver] = await Promise.all([modulesOfWorker('webhook'), modulesOfWorker('deliver')]);
    expect({ processors: processorModules(webhook), pushSdks: pushSdks(webhook) }).toEqual({
      processors: ['webhook-processor.ts'],
      pushSdks: [],
    });
    expect(processorModules(deliver)).toEqual(['deliver-processor.ts']);
    expect(pushSdks(deliver)).not.toEqual([]);
  });
});
