import { get } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

const { ingress } = useIngress();

/**
 * A revalidation as a browser's cache makes it. fetch() cannot: a request given If-None-Match by its caller also
 * gets Cache-Control: no-cache (Fetch standard, HTTP-network-or-cache fetch), which a server must answer in full.
 */
function revalidate(path: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(ingress.baseUrl + path, { headers: { 'if-none-match': etag } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('the web SDK files (/sdk/...)', () => {
  it('serves each with an ETag, revalidation, short caching and CORS for any origin', async () => {
    for (const file of ['web.js', 'web.iife.js', 'service-worker.js', 'web.d.ts']) {
      const first = await fetch(`${ingress.baseUrl}/sdk/${file}`, { headers: { origin: 'https://shop.example' } });
      expect(first.status, file).toBe(200);
      expect(first.headers.get('content-type'), file).toMatch(
        file.endsWith('.d.ts') ? /^application\/typescript/ : /^text\/javascript/,
      );
      expect(first.headers.get('access-control-allow-origin'), file).toBe('*');
      expect(first.headers.get('cache-control'), file).toBe('public, max-age=300');
      const etag = first.headers.get('etag');
      expect(etag, file).toBeTruthy();
      expect(await revalidate(`/sdk/${file}`, etag!), file).toBe(304);
    }
  });

  it('keeps /sdk/web.js under 8 KB gzipped and ships its typings', async () => {
    const module = Buffer.from(await (await fetch(`${ingress.baseUrl}/sdk/web.js`)).arrayBuffer());
    expect(gzipSync(module, { level: 9 }).length).toBeLessThan(8 * 1024);
    const typings = await (await fetch(`${ingress.baseUrl}/sdk/web.d.ts`)).text();
    expect(typings).toContain('export interface PushEngineSdk');
    expect(typings).toContain('export default PushEngine;');
  });
});
