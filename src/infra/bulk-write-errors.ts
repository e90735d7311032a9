/** MongoDB's duplicate-key error code: a unique index refused the write. */
const duplicateKeyCode = 11000;

interface IndexedWriteError {
  index: number;
  code: number;
}

/**
 * The positions an unordered insertMany or bulkWrite refused because of a unique index, or null when the error is
 * anything else (which the caller rethrows).
 */
export function duplicateKeyPositions(error: unknown): number[] | null {
  const writeErrors = (error as { writeErrors?: IndexedWriteError | IndexedWriteError[] }).writeErrors;
  if (writeErrors === undefined) return null;
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  if (list.length === 0 || list.some((writeError) => writeError.code !== duplicateKeyCode)) return null;
  return list.map((writeError) => writeError.index);
}
