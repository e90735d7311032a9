import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { CountDeps } from '../events/pending-counts.ts';
import type { DeviceDocument } from '../models/device.ts';
import { databaseSegmentResolver } from '../targets/segment-resolver.ts';
import { notFound } from '../errors.ts';
import type { DeviceExportQuery } from '../schemas/device-import.ts';
import { csvCells, deviceCsvColumns, tagColumnPrefix, type ExportedDevice } from './device-csv.ts';

const exportProjection = {
  deviceId: 1,
  platform: 1,
  pushToken: 1,
  webPushKeys: 1,
  userId: 1,
  tags: 1,
  language: 1,
  timezone: 1,
  isSubscribed: 1,
} as const;

type ExportRead = Pick<
  DeviceDocument,
  'deviceId' | 'platform' | 'pushToken' | 'webPushKeys' | 'userId' | 'tags' | 'language' | 'timezone' | 'isSubscribed'
>;

/** A device as a row of the import: exporting and importing it into another project gives the same device. */
function exported(device: ExportRead): ExportedDevice {
  const keys = device.webPushKeys;
  return {
    id: device.deviceId,
    platform: device.platform,
    ...(keys?.p256dh && keys.auth && device.pushToken
      ? { webPush: { endpoint: device.pushToken, keys: { p256dh: keys.p256dh, auth: keys.auth } } }
      : device.pushToken !== null && { pushToken: device.pushToken }),
    userId: device.userId ?? null,
    tags: device.tags ?? {},
    language: device.language ?? null,
    timezone: device.timezone ?? null,
    isSubscribed: device.isSubscribed !== false,
  };
}

/** The project's devices in _id order: one range of the _id index, as project ids hold no ':'. */
export const projectDevicesQuery = (models: CountDeps['models'], projectId: string) =>
  models.Device.find({ _id: { $gt: `${projectId}:`, $lt: `${projectId};` } }, exportProjection)
    .sort({ _id: 1 })
    .lean<ExportRead[]>();

/**
 * The project's devices in _id order, by a cursor over the _id index (a project's devices are one range of it,
 * `<projectId>:` to `<projectId>;`), or a segment's subscribed devices as a send reads them: memory holds one batch.
 */
async function* exportedDevices(deps: CountDeps, projectId: string, segmentId?: string): AsyncIterable<ExportedDevice> {
  const devices =
    segmentId === undefined
      ? projectDevicesQuery(deps.models, projectId).cursor({ batchSize: 1000 })
      : databaseSegmentResolver(deps).cursorFor(projectId, [segmentId], {
          afterId: null,
          projection: exportProjection,
        });
  for await (const device of devices as AsyncIterable<ExportRead>) yield exported(device);
}

/** Every tag key of the exported devices, sorted: a CSV's header names them all before its first row. */
async function tagKeysOf(devices: AsyncIterable<ExportedDevice>): Promise<string[]> {
  const keys = new Set<string>();
  for await (const device of devices) for (const key of Object.keys(device.tags)) keys.add(key);
  return [...keys].sort();
}

async function* csvRows(devices: AsyncIterable<ExportedDevice>, tagKeys: string[]): AsyncIterable<string[]> {
  yield [...deviceCsvColumns, ...tagKeys.map((key) => `${tagColumnPrefix}${key}`)];
  for await (const device of devices) yield csvCells(device, tagKeys);
}

async function* ndjsonLines(devices: AsyncIterable<ExportedDevice>): AsyncIterable<string> {
  for await (const device of devices) yield `${JSON.stringify(device)}\n`;
}

/**
 * The export as a stream read as the client takes it. A CSV reads the devices twice: once for the tag columns of its
 * header, once for its rows; both are cursors, so memory holds a batch and the set of tag keys.
 */
export async function deviceExport(deps: CountDeps, projectId: string, query: DeviceExportQuery): Promise<Readable> {
  if (query.segmentId !== undefined) {
    const segment = await deps.models.Segment.exists({ _id: query.segmentId, projectId });
    if (!segment) throw notFound(`No segment "${query.segmentId}" in this project.`);
  }
  const devices = () => exportedDevices(deps, projectId, query.segmentId);
  if (query.format === 'ndjson') return Readable.from(ndjsonLines(devices()));
  const tagKeys = await tagKeysOf(devices());
  // A failed read ends the response with the stream's error: pipeline passes it on to the CSV stream.
  return pipeline(Readable.from(csvRows(devices(), tagKeys)), stringify(), () => {});
}
