import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import type { DeviceImportDocument } from '../models/device-import.ts';
import type { DeviceImportFormat, DeviceImportView } from '../schemas/device-import.ts';
import { enqueueDeviceImport } from '../queues/device-import.ts';
import { notFound } from '../errors.ts';
import { storeUpload } from './store-upload.ts';
import { deleteImportFile } from './import-files.ts';

export function toImportView(doc: DeviceImportDocument): DeviceImportView {
  return {
    id: doc._id,
    status: doc.status,
    format: doc.format,
    bytes: doc.bytes,
    bytesRead: doc.status === 'completed' ? doc.bytes : doc.checkpoint.bytes,
    rows: doc.rows,
    created: doc.created,
    updated: doc.updated,
    failed: doc.failed,
    errors: doc.errors.map(({ line, message }) => ({ line, message })),
    ...(doc.reason && { reason: doc.reason }),
    createdAt: doc.createdAt.toISOString(),
  };
}

/**
 * Stores the upload, records the import and queues it: answered once all three are durable. An import that cannot
 * be queued leaves neither its record nor its file behind.
 */
export async function createImport(
  deps: Pick<Deps, 'models' | 'mongo' | 'queues'>,
  projectId: string,
  format: DeviceImportFormat,
  body: Readable,
): Promise<DeviceImportView> {
  const importId = randomUUID();
  const { fileId, bytes } = await storeUpload(deps.mongo, body, { projectId, importId });
  const created = await deps.models.DeviceImport.create({ _id: importId, projectId, fileId, format, bytes });
  try {
    await enqueueDeviceImport(deps, { projectId, importId });
  } catch (error) {
    await deps.models.DeviceImport.deleteOne({ _id: importId });
    await deleteImportFile(deps.mongo, fileId);
    throw error;
  }
  return toImportView(created.toObject() as DeviceImportDocument);
}

/** The project's import; another project's is not found. */
export async function findImport(deps: Pick<Deps, 'models'>, projectId: string, importId: string) {
  const doc = await deps.models.DeviceImport.findOne({ _id: importId, projectId }).lean<DeviceImportDocument>();
  if (!doc) throw notFound(`No device import "${importId}" in this project.`);
  return toImportView(doc);
}

/** The project's 20 latest imports, newest first, on the (projectId, createdAt) index. */
export const recentImportsQuery = (models: Deps['models'], projectId: string) =>
  models.DeviceImport.find({ projectId }, { pending: 0 })
    .sort({ createdAt: -1 })
    .limit(20)
    .lean<DeviceImportDocument[]>();

export async function recentImports(deps: Pick<Deps, 'models'>, projectId: string): Promise<DeviceImportView[]> {
  return (await recentImportsQuery(deps.models, projectId)).map(toImportView);
}
