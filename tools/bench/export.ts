/**
 * npm run bench:export [-- --devices 1000000]
 *
 * Starts Redis and MongoDB the way the tests do and the ingress, seeds N devices directly, then measures
 * GET /devices/export (NDJSON, read to its end) against a raw cursor over the same devices in the same run, and the
 * ingress's peak RSS before and after the export (device-export-measure.ts). Target: rows/s ≥ 0.7 of the raw cursor,
 * the ingress's memory flat.
 */
import { parseArgs } from 'node:util';
import { ensureIndexes } from '../../src/models/ensure-indexes.ts';
import { loadConfig } from '../../src/config.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';
import { seedDevices } from './seed-devices.ts';
import { measureExport } from './device-export-measure.ts';

const { values: options } = parseArgs({ options: { devices: { type: 'string', default: '100000' } } });
const devices = Number(options.devices);

const bench = await openBenchEnvironment('export');
Object.assign(process.env, bench.env);
try {
  const { models } = bench;
  await ensureIndexes(models);
  const ingress = await bench.startIngress();
  const project = await createProject(models, { name: 'export bench', plan: 'business' }, loadConfig().credentialsKey);
  await seedDevices(models, project.projectId, devices, (index) => ({ plan: index % 3 ? 'free' : 'pro' }));
  const exported = await measureExport(bench.baseUrl, models, project, ingress.pid);
  console.log(
    `export: ${exported.rows} rows in ${exported.seconds.toFixed(1)} s = ${Math.round(exported.rowsPerSecond)} rows/s; ` +
      `raw cursor ${Math.round(exported.ceilingRowsPerSecond)} rows/s; product/ceiling ${exported.ratio.toFixed(2)}; ` +
      `ingress peak RSS ${exported.ingressPeakBeforeMiB} MiB before the export, ${exported.ingressPeakAfterMiB} MiB after`,
  );
} finally {
  await bench.close();
}
