import type { Models } from '../../src/models/index.ts';
import { peakRssMiB } from './measure.ts';

export interface ExportMeasure {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  ceilingRowsPerSecond: number;
  ratio: number;
  ingressPeakBeforeMiB: number;
  ingressPeakAfterMiB: number;
}

/**
 * The export of the project's devices through GET /devices/export (NDJSON, read to its end as a client would), against
 * its ceiling in the same run: a raw cursor over the same `_id` range of the devices collection, every document read.
 * The ingress's peak RSS before and after says whether its memory stayed flat.
 */
export async function measureExport(
  baseUrl: string,
  models: Models,
  project: { projectId: string; apiKey: string },
  ingressPid: number | undefined,
): Promise<ExportMeasure> {
  const ceilingStart = performance.now();
  let ceilingRows = 0;
  const range = { _id: { $gt: `${project.projectId}:`, $lt: `${project.projectId};` } };
  const raw = models.Device.collection
    .find(range as never)
    .sort({ _id: 1 })
    .batchSize(1000);
  for await (const _device of raw) ceilingRows += 1;
  const ceilingSeconds = (performance.now() - ceilingStart) / 1000;

  const ingressPeakBeforeMiB = await peakRssMiB(ingressPid);
  const started = performance.now();
  const answer = await fetch(`${baseUrl}/v1/projects/${project.projectId}/devices/export?format=ndjson`, {
    headers: { authorization: `Bearer ${project.apiKey}` },
  });
  if (!answer.ok || !answer.body) throw new Error(`export answered ${answer.status}`);
  let rows = 0;
  for await (const chunk of answer.body as AsyncIterable<Uint8Array>)
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) rows += 1;
  const seconds = (performance.now() - started) / 1000;
  const rowsPerSecond = rows / seconds;
  const ceilingRowsPerSecond = ceilingRows / ceilingSeconds;
  return {
    rows,
    seconds,
    rowsPerSecond,
    ceilingRowsPerSecond,
    ratio: rowsPerSecond / ceilingRowsPerSecond,
    ingressPeakBeforeMiB,
    ingressPeakAfterMiB: await peakRssMiB(ingressPid),
  };
}
