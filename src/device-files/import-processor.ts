import type { Job } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { DeviceImportJobData } from '../queues/device-import.ts';
import type { DeviceImportDocument, ImportBatch } from '../models/device-import.ts';
import { deleteImportFile, readImportFile } from './import-files.ts';
import { importRecords, type ImportRecord } from './read-records.ts';
import { csvDialect, unknownHeaderMessage, type CsvDialect } from './validate-row.ts';
import { applyRecords, ImportOvertaken } from './import-run.ts';
import { assertLockHeld } from '../queues/lost-lock.ts';

/** Rows per bulk write: a few hundred keep each write short and the checkpoint close behind the reading. */
export const importBatchSize = 500;

/** Why a file cannot be read any further: the import fails with it, where a storage error is retried. */
class UnreadableFile extends Error {}

/** csv-parse's errors (an unclosed quote, say) have codes starting CSV_ and name the line. */
const isCsvError = (error: unknown) => String((error as { code?: unknown }).code ?? '').startsWith('CSV_');

async function finish(deps: Pick<Deps, 'models' | 'mongo'>, doc: DeviceImportDocument, reason?: string) {
  const status = reason === undefined ? 'completed' : 'failed';
  await deps.models.DeviceImport.updateOne({ _id: doc._id }, { $set: { status, ...(reason && { reason }) } });
  await deleteImportFile(deps.mongo, doc.fileId);
}

/**
 * Reads the import's file from its checkpoint (or from the batch it left pending) and applies it a batch at a time,
 * each batch advancing the checkpoint (applyRecords), so a run that dies resumes where the last one stopped. A run
 * whose lock lapsed stops before its next batch, and one another run overtook stops where it was: that run goes on.
 */
async function runImport(deps: Deps, doc: DeviceImportDocument, lockHeld: () => Promise<void>): Promise<void> {
  const { models } = deps;
  const unfinished = { $in: ['queued', 'running'] as const };
  await models.DeviceImport.updateOne({ _id: doc._id, status: unfinished }, { $set: { status: 'running' } });
  let dialect: CsvDialect | null = doc.columns ? csvDialect(doc.columns) : null;
  let pending: ImportBatch | null = doc.pending;
  let from = pending?.from ?? doc.checkpoint;
  const state = { _id: doc._id, projectId: doc.projectId, errors: [...doc.errors] };
  const source = readImportFile(deps.mongo, doc.fileId, from.bytes, doc.bytes);
  const onColumns = async (columns: string[]) => {
    dialect = csvDialect(columns);
    if (!dialect) throw new UnreadableFile(unknownHeaderMessage);
    await models.DeviceImport.updateOne({ _id: doc._id }, { $set: { columns } });
  };
  let batch: ImportRecord[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await lockHeld();
    from = (await applyRecords(deps, state, batch, dialect, from, pending)).to;
    pending = null;
    batch = [];
  };
  try {
    for await (const record of importRecords(doc.format, source, from, doc.columns ?? undefined, onColumns)) {
      batch.push(record);
      if (pending ? record.end.bytes >= pending.to.bytes : batch.length >= importBatchSize) await flush();
    }
    await flush();
  } catch (error) {
    if (error instanceof ImportOvertaken) return;
    if (error instanceof UnreadableFile) return finish(deps, doc, error.message);
    if (isCsvError(error)) return finish(deps, doc, `The file is not valid CSV: ${(error as Error).message}`);
    throw error;
  } finally {
    source.destroy();
  }
  await finish(deps, doc);
}

export function deviceImportProcessor(deps: Deps) {
  return async (job: Job<DeviceImportJobData>, token?: string): Promise<void> => {
    const doc = await deps.models.DeviceImport.findById(job.data.importId).lean<DeviceImportDocument>();
    if (!doc || doc.status === 'completed' || doc.status === 'failed') return;
    await runImport(deps, doc, () => assertLockHeld(deps.redis, job, token));
  };
}
