import { createServer, type Server } from 'node:http';
import { useResource } from './use-resource.ts';

export interface WebSite {
  /** http://localhost:<port>: another origin than the ingress at http://127.0.0.1:<port>. */
  origin: string;
  close(): Promise<void>;
}

/** For the tests (SiteGlobals.rejectionOf): what a call rejected with, its name and message kept, or null. */
const rejectionOf =
  'window.rejectionOf = (promise) => promise.then(() => null, (error) => ({ ...error, name: error.name, message: error.message }));';

/** A 1×1 PNG: Chromium fetches a notification's image before it shows the notification. */
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const contentTypes: Record<string, string> = { '.js': 'text/javascript', '.png': 'image/png' };

/** A customer's website: its pages, an image and its service worker file, which imports ours from the ingress. */
function pages(ingress: string): Record<string, string | Buffer> {
  return {
    '/': `<!doctype html><title>shop</title><script>${rejectionOf}</script><script type="module">import PushEngine from '${ingress}/sdk/web.js'; window.PushEngine = PushEngine; window.sdkLoaded = true;</script>`,
    '/script-tag.html': `<!doctype html><title>shop</title><script>window.PushEngineDeferred = window.PushEngineDeferred || [];</script><script src="${ingress}/sdk/web.iife.js" defer></script>`,
    '/push-engine-sw.js': `importScripts('${ingress}/sdk/service-worker.js');`,
    // A worker kept with the site's other scripts: its scope, /assets/, does not hold the pages.
    '/assets/push-engine-sw.js': `importScripts('${ingress}/sdk/service-worker.js');`,
    '/image.png': pixel,
  };
}

export async function startWebSite(ingress: string): Promise<WebSite> {
  const files = pages(ingress);
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const body = files[path];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, {
        'content-type': contentTypes[path.slice(path.lastIndexOf('.'))] ?? 'text/html',
        'cache-control': 'no-store',
      })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the site is not listening on TCP');
  return {
    origin: `http://localhost:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The site for the test file, started once the ingress answers at `ingress()`; filled in before the tests run. */
export function useWebSite(ingress: () => string): WebSite {
  return useResource(() => startWebSite(ingress()));
}
