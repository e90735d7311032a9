import type { Deps } from '../deps.ts';
import type { DeviceImportDocument, ImportBatch, ImportPosition } from '../models/device-import.ts';
import { maxReportedLineErrors, type LineError } from '../schemas/device-import.ts';
import { addToDayOnce } from '../overview/daily-counts.ts';
import type { ImportRecord } from './read-records.ts';
import { validateRow, type CsvDialect } from './validate-row.ts';
import { writeBatch } from './apply-batch.ts';
import type { LinedRow } from './plan-batch.ts';

type ImportState = Pick<DeviceImportDocument, 'projectId' | 'errors'> & { _id: string };

/** Another run of the same import moved its checkpoint past the batch this run was applying: that run goes on. */
export class ImportOvertaken extends Error {
  constructor(importId: string) {
    super(`import ${importId} was moved past this run's batch by another run`);
    this.name = 'ImportOvertaken';
  }
}

/** A batch's rows as devices, and the lines that are not one (unreadable, or breaking a rule of §3 and §4). */
function readRows(deps: Pick<Deps, 'config'>, records: ImportRecord[], dialect: CsvDialect | null) {
  const rows: LinedRow[] = [];
  const errors: LineError[] = [];
  for (const { line, fields, problem } of records) {
    const read = fields && dialect ? dialect(fields as Record<string, string>) : (fields ?? problem!);
    const checked = typeof read === 'string' ? { problem: read } : validateRow(deps.config, read);
    if ('row' in checked) rows.push({ line, row: checked.row });
    else errors.push({ line, message: checked.problem });
  }
  return { rows, errors };
}

/**
 * Applies one batch of an import and advances its checkpoint past it. What the batch adds (its counts, its line
 * errors, its change to the subscribed devices) is written to the import as `pending` before any device is, and
 * added to the counts with the checkpoint after: a run killed in between finds it pending, writes the batch again
 * (its applied rows now change nothing) and adds what the first run found, so every row counts once. `replay` is
 * that pending batch. Answers the batch as applied.
 *
 * Two runs of one import may overlap (a run whose lock lapsed goes on beside the one stalled-job recovery started):
 * a batch becomes pending only where the checkpoint is still its `from` and nothing is pending, and the checkpoint
 * moves (with the counts) only from the batch's `from`, so of two runs applying one batch one adds it and the other
 * throws ImportOvertaken. The day's subscribed count takes each step of the import at most once, in either order.
 */
export async function applyRecords(
  deps: Pick<Deps, 'config' | 'models'>,
  state: ImportState,
  records: ImportRecord[],
  dialect: CsvDialect | null,
  from: ImportPosition,
  replay: ImportBatch | null,
): Promise<ImportBatch> {
  const { models } = deps;
  const { rows, errors } = readRows(deps, records, dialect);
  let batch = replay;
  const at = replay?.at ?? new Date();
  await writeBatch(models, state.projectId, rows, at, async (plan) => {
    if (batch) return;
    const lineErrors = [...errors, ...plan.errors].sort((a, b) => a.line - b.line);
    batch = {
      from,
      to: records.at(-1)!.end,
      rows: records.length,
      created: plan.created,
      updated: plan.updated,
      failed: lineErrors.length,
      subscribed: plan.subscribed,
      errors: lineErrors.slice(0, Math.max(0, maxReportedLineErrors - state.errors.length)),
      at,
    };
    const claimed = await models.DeviceImport.updateOne(
      { _id: state._id, 'checkpoint.bytes': from.bytes, pending: null },
      { $set: { pending: batch } },
    );
    if (claimed.matchedCount === 0) throw new ImportOvertaken(state._id);
  });
  const applied = batch!;
  const once = { writer: state._id, step: applied.from.bytes };
  await addToDayOnce(models, state.projectId, { subscribed: applied.subscribed }, applied.at, once);
  const advanced = await models.DeviceImport.updateOne(
    { _id: state._id, 'checkpoint.bytes': applied.from.bytes, 'pending.to.bytes': applied.to.bytes },
    {
      $set: { checkpoint: applied.to, pending: null },
      $inc: {
        rows: applied.rows,
        created: applied.created,
        updated: applied.updated,
        failed: applied.failed,
      },
      ...(applied.errors.length > 0 && { $push: { errors: { $each: applied.errors } } }),
    },
  );
  if (advanced.matchedCount === 0) throw new ImportOvertaken(state._id);
  state.errors.push(...applied.errors);
  return applied;
}
