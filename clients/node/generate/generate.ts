import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generateClientSources } from './client-sources.ts';

/** `npm run client:generate`: rewrites the client's generated files from the app's routes; run after a schema change. */
const clientRoot = resolve(import.meta.dirname, '..');
for (const [path, text] of Object.entries(await generateClientSources())) {
  const file = resolve(clientRoot, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${path}`);
}
