import type { Models } from '../models/index.ts';
import type { DeviceDocument } from '../models/device.ts';
import { deviceKey } from '../models/device.ts';
import { isDuplicateKeyError } from '../infra/ignore-duplicate-keys.ts';
import { unavailable } from '../errors.ts';
import { planBatch, type BatchPlan, type LinedRow } from './plan-batch.ts';

/** Each retry follows a concurrent registration of one of the batch's devices: this many only under a storm. */
const maxAttempts = 20;

interface BulkOutcome {
  insertedCount?: number;
  matchedCount?: number;
  writeErrors?: { code?: number } | Array<{ code?: number }>;
}

/**
 * The plan's writes that landed: every insert but those a concurrent registration beat (a duplicate key), every
 * replace but those whose device another writer changed since it was read (no match on the revision).
 */
async function landedWrites(models: Models, plan: BatchPlan): Promise<number> {
  try {
    const result = await models.Device.collection.bulkWrite(plan.writes as never, { ordered: false });
    return result.insertedCount + result.matchedCount;
  } catch (error) {
    const failure = error as BulkOutcome;
    const errors = [failure.writeErrors ?? []].flat();
    if (errors.length === 0 || !errors.every(isDuplicateKeyError)) throw error;
    return (failure.insertedCount ?? 0) + (failure.matchedCount ?? 0);
  }
}

const readDevices = (models: Models, projectId: string, rows: LinedRow[]) =>
  models.Device.find({ _id: { $in: rows.map(({ row }) => deviceKey(projectId, row.id)) } })
    .read('primary')
    .lean<DeviceDocument[]>();

/**
 * Plans the rows against their devices as read, and writes the plan; a write that a concurrent registration beat
 * sends the batch round again, in which the rows already applied change nothing. `onPlanned` sees the first plan,
 * before anything is written: what the batch adds to the import's counts is what it found.
 */
export async function writeBatch(
  models: Models,
  projectId: string,
  rows: LinedRow[],
  at: Date,
  onPlanned: (plan: BatchPlan) => Promise<void>,
): Promise<void> {
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const plan = planBatch(projectId, rows, await readDevices(models, projectId, rows), at);
    if (attempt === 1) await onPlanned(plan);
    if (plan.writes.length === 0 || (await landedWrites(models, plan)) === plan.writes.length) return;
  }
  throw unavailable('The import’s devices are being changed by other writers faster than it can apply them.');
}
