import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Connection, mongo } from 'mongoose';
import { ApiError, invalidRequest } from '../errors.ts';
import { maxImportBytes, maxImportRows } from '../schemas/device-import.ts';
import { deleteImportFile, importFileBucket } from './import-files.ts';

export const importTooLarge = (what: string) =>
  new ApiError(413, 'payload_too_large', `An import holds at most ${what}; split the file and import each part.`);

const newline = 0x0a;

/**
 * Counts the bytes and lines passing through, and stops the upload at the first byte past either limit. Lines, not
 * rows: a CSV field may hold a line break, so a file of 1,000,000 rows may have more lines; a header line and a last
 * line without its newline are allowed on top of the limit.
 */
function uploadLimits() {
  let bytes = 0;
  let lines = 0;
  let blank = true;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxImportBytes) return done(importTooLarge('256 MiB'));
      for (let at = chunk.indexOf(newline); at !== -1; at = chunk.indexOf(newline, at + 1)) lines += 1;
      if (lines > maxImportRows + 1) return done(importTooLarge(`${maxImportRows.toLocaleString('en')} rows`));
      if (blank && /\S/.test(chunk.toString('latin1'))) blank = false;
      done(null, chunk);
    },
  });
  return { counter, bytes: () => bytes, blank: () => blank };
}

/**
 * Streams the body into a new GridFS file and answers its id once every chunk is written, never holding more than a
 * chunk of it. A body over a limit, or holding nothing but white space, leaves no file behind.
 */
export async function storeUpload(
  connection: Connection,
  body: Readable,
  metadata: { projectId: string; importId: string },
): Promise<{ fileId: mongo.ObjectId; bytes: number }> {
  const limits = uploadLimits();
  const upload = importFileBucket(connection).openUploadStream(metadata.importId, { metadata });
  try {
    await pipeline(body, limits.counter, upload);
  } catch (error) {
    await deleteImportFile(connection, upload.id);
    throw error;
  }
  if (limits.blank()) {
    await deleteImportFile(connection, upload.id);
    throw invalidRequest('The body is empty: send the devices as NDJSON (one per line) or CSV with a header row.');
  }
  return { fileId: upload.id, bytes: limits.bytes() };
}
