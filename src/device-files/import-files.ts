import { mongo, type Connection } from 'mongoose';
import type { Readable } from 'node:stream';

/**
 * Uploaded import files, in GridFS in the same database as the devices: stored whole before the upload is answered,
 * readable by any worker from any byte, and gone with the database's own backups and replication.
 */
export function importFileBucket(connection: Connection): mongo.GridFSBucket {
  return new mongo.GridFSBucket(connection.db!, { bucketName: 'device_import_files' });
}

/**
 * The file's bytes from `start` to its `length`, read as the reader consumes them (GridFS chunks of 255 KiB). The end
 * is given: the driver takes a start without one as past an end of 0 and fails the stream.
 */
export function readImportFile(
  connection: Connection,
  fileId: mongo.ObjectId,
  start: number,
  length: number,
): Readable {
  return importFileBucket(connection).openDownloadStream(fileId, { start, end: length });
}

export async function deleteImportFile(connection: Connection, fileId: mongo.ObjectId): Promise<void> {
  await importFileBucket(connection)
    .delete(fileId)
    .catch((error: unknown) => {
      // Already gone: an earlier attempt deleted it.
      if (!(error instanceof mongo.MongoRuntimeError)) throw error;
    });
}
