import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from '../http/app-types.ts';
import { notFound } from '../errors.ts';

/** Built by the web build (npm run build:web, which npm start's prestart and the test set-up run) into its WEB_DIST. */
export const consoleDist = resolve(import.meta.dirname, '../../dist/web/console');

/**
 * Only the console's own files run: no inline script or style, no framing, no script or style from elsewhere. Images
 * may come from any https address, as a message's image does on the phone, for its previews. The API it calls is this
 * origin's, so connect-src 'self' is enough.
 */
const securityHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * The console at /console: index.html is never cached, so a deploy reaches every tab at its next load; the scripts and
 * stylesheets it names carry a content hash, so they are cached for a year and never revalidated.
 */
export async function registerConsole(app: App): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(securityHeaders);
    });
    await scope.register(fastifyStatic, {
      root: consoleDist,
      prefix: '/console/',
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
      },
      schemaHide: true,
    });
    const index = resolve(consoleDist, 'index.html');
    for (const url of ['/console', '/console/']) {
      scope.get(url, { schema: { hide: true } }, (_request, reply) => {
        // Checked on each request, so that a build finished after the ingress started is served at once.
        if (!existsSync(index))
          throw notFound('The console is not built: run npm run build:web (npm start and npm test build it).');
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      });
    }
  });
}
