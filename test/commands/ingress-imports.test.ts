import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * Loads what the ingress process loads (its app, its context and the deps it opens) in a Node process of its own, and
 * answers the URL of every module Node loaded for them, recorded by a module hook.
 */
async function modulesTheIngressLoads(): Promise<string[]> {
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ load: (url, context, nextLoad) => (loaded.push(url), nextLoad(url, context)) });
    for (const entry of ['src/app.ts', 'src/app-context.ts', 'src/open-deps.ts']) await import(new URL(entry, 'file://' + process.cwd() + '/').href);
    console.log(JSON.stringify(loaded));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout) as string[];
}

describe('the ingress', () => {
  it("loads no worker code and none of the push gateways' SDKs", async () => {
    const loaded = await modulesTheIngressLoads();
    expect(loaded.some((url) => url.endsWith('/src/app.ts'))).toBe(true);
    const workerCode = loaded.filter((url) => /\/src\/(worker-runtime\/|.*-processor\.ts$)/.test(url));
    const pushSdks = loaded.filter((url) => /\/node_modules\/(firebase-admin|@parse\/node-apn)\//.test(url));
    expect({ workerCode, pushSdks }).toEqual({ workerCode: [], pushSdks: [] });
  });
});
