/** MongoDB's duplicate-key error code: a unique index refused the write. */
const duplicateKeyCode = 11000;

/** A single-document write refused by a unique index. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown }).code === duplicateKeyCode;
}

interface BulkWriteFailure {
  writeErrors?: { code?: number; index?: number } | Array<{ code?: number; index?: number }>;
  insertedCount?: number;
  upsertedCount?: number;
  matchedCount?: number;
}

/**
 * Runs an unordered insertMany or upserting bulkWrite of `writes` documents whose repeats a unique index refuses,
 * and takes those refusals as success: a retried or replayed job writes again what an earlier attempt wrote.
 *
 * Every document must be accounted for, written or refused as a duplicate. The driver also throws a
 * MongoBulkWriteError with an EMPTY writeErrors list when the server could not be reached at all: "every write
 * error is a duplicate" is then vacuously true, and a write that never happened would pass for a repeat (history
 * taken for written made a MongoDB outage send pushes twice).
 */
export async function ignoringDuplicateKeys(writes: number, write: () => Promise<unknown>): Promise<void> {
  await refusedRepeats(writes, write);
}

/** As ignoringDuplicateKeys, answering the positions of the documents a unique index refused. */
export async function refusedRepeats(writes: number, write: () => Promise<unknown>): Promise<number[]> {
  try {
    await write();
    return [];
  } catch (error) {
    const failure = error as BulkWriteFailure;
    if (!onlyDuplicates(failure, writes)) throw error;
    return [failure.writeErrors!].flat().map((writeError) => writeError.index!);
  }
}

function onlyDuplicates(failure: BulkWriteFailure, writes: number): boolean {
  if (failure.writeErrors === undefined) return false;
  const errors = [failure.writeErrors].flat();
  if (errors.length === 0 || errors.some((writeError) => writeError.code !== duplicateKeyCode)) return false;
  const written = (failure.insertedCount ?? 0) + (failure.upsertedCount ?? 0) + (failure.matchedCount ?? 0);
  return written + errors.length === writes;
}
