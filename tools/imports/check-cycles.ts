import { importCycles, importGraph } from './import-graph.ts';

/** Lists the import cycles of the server's code (`import type` and `import()` counted) and fails if there is one. */
const cycles = importCycles(importGraph(process.cwd()));
for (const cycle of cycles) console.log(`cycle of ${cycle.length} files:\n  ${cycle.join('\n  ')}`);
console.log(`${cycles.length} import cycles`);
process.exitCode = cycles.length > 0 ? 1 : 0;
