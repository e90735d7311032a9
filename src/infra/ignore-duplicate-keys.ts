/** MongoDB's duplicate-key error code: a unique index refused the write. */
const duplicateKeyCode = 11000;

/** A single-document write refused by a unique index. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown }).code === duplicateKeyCode;
}

type WriteError = WriteFailure & { index?: number };

interface BulkWriteFailure {
  writeErrors?: WriteError | WriteError[];
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
    const errors = writeErrorsOf(error, writes);
    if (!errors || [...errors.values()].some((writeError) => writeError.code !== duplicateKeyCode)) throw error;
    return [...errors.keys()];
  }
}

/** A document an unordered write did not write, and why. */
export interface WriteFailure {
  code?: number;
  errmsg?: string;
}

/**
 * The documents of an unordered write that failed, by position: each document's own error, where one document's
 * refusal is no reason to fail the others'. An error that does not account for every document is thrown.
 */
export async function failedWrites(writes: number, write: () => Promise<unknown>): Promise<Map<number, WriteFailure>> {
  try {
    await write();
    return new Map();
  } catch (error) {
    const errors = writeErrorsOf(error, writes);
    if (!errors) throw error;
    return errors;
  }
}

/** The write errors by position, or undefined unless every document is accounted for, written or refused. */
function writeErrorsOf(error: unknown, writes: number): Map<number, WriteFailure> | undefined {
  const failure = error as BulkWriteFailure;
  if (failure.writeErrors === undefined) return undefined;
  const errors = [failure.writeErrors].flat();
  const written = (failure.insertedCount ?? 0) + (failure.upsertedCount ?? 0) + (failure.matchedCount ?? 0);
  if (errors.length === 0 || written + errors.length !== writes) return undefined;
  return new Map(errors.map((writeError) => [writeError.index!, writeError]));
}
