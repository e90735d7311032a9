import { importCycles, importGraph } from './import-graph.ts';
import { folderCycles, unrankedFolders, upwardImports } from './folder-layers.ts';

/**
 * Lists the import cycles of the server's code (`import type` and `import()` counted), and the folders of src/ that
 * import one another, import a higher rank or have none; fails if there is any.
 */
const graph = importGraph(process.cwd());
const cycles = importCycles(graph);
for (const cycle of cycles) console.log(`cycle of ${cycle.length} files:\n  ${cycle.join('\n  ')}`);
const folders = folderCycles(graph);
for (const cycle of folders) console.log(`folders importing one another: ${cycle.join(', ')}`);
const upward = upwardImports(graph);
for (const line of upward) console.log(`import into a higher folder: ${line}`);
const unranked = unrankedFolders(graph);
for (const folder of unranked) console.log(`folder with no rank: src/${folder}`);
console.log(`${cycles.length} import cycles, ${folders.length} folder cycles, ${upward.length} upward imports`);
process.exitCode = cycles.length + folders.length + upward.length + unranked.length > 0 ? 1 : 0;
