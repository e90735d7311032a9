import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClientSources } from '../../clients/node/generate/client-sources.ts';

const clientRoot = resolve(import.meta.dirname, '../../clients/node');

describe('the typed client', () => {
  it("has the generated files `npm run client:generate` makes of today's routes", async () => {
    const fresh = await generateClientSources();
    expect(Object.keys(fresh).length).toBeGreaterThan(0);
    for (const [path, text] of Object.entries(fresh)) {
      const committed = readFileSync(resolve(clientRoot, path), 'utf8');
      expect(committed === text, `clients/node/${path} is stale: run npm run client:generate`).toBe(true);
    }
  });
});
