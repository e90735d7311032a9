import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from '../http/app-types.ts';

/** Built by the web build (npm run build:web, which npm start's prestart and the test set-up run) from web/sdk. */
export const sdkDist = resolve(import.meta.dirname, '../../dist/web/sdk');

/** `.ts` would be served as an MPEG transport stream. */
const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.d.ts': 'application/typescript; charset=utf-8',
};

/**
 * The web SDK at /sdk/web.js, /sdk/web.iife.js, /sdk/service-worker.js and /sdk/web.d.ts. Sites load them from
 * their own origins (an ES module import needs CORS), under fixed names: cached for five minutes, then revalidated
 * by ETag, so a new release reaches every site within that.
 */
export async function registerWebSdk(app: App): Promise<void> {
  await app.register(async (sdk) => {
    await sdk.register(fastifyStatic, {
      root: sdkDist,
      prefix: '/sdk/',
      index: false,
      wildcard: false,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const type = Object.entries(contentTypes).find(([suffix]) => path.endsWith(suffix));
        if (type) reply.header('content-type', type[1]);
        reply.header('cache-control', 'public, max-age=300');
        reply.header('access-control-allow-origin', '*');
        reply.header('cross-origin-resource-policy', 'cross-origin');
      },
      schemaHide: true,
    });
  });
}
