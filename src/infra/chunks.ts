/**
 * Bounds how many writes one step sends at once (tags-by-user runs its per-device updates 50 at a time, so a user
 * with thousands of devices neither floods the connection pool nor holds a worker slot with one huge command).
 */
export const maxUpdatesPerCommand = 50;

/**
 * The ids one query's `$in` names at most: a send request's most, and what a storage server that costs an `$in` more
 * than in proportion to its values (the local one) matches in one pass.
 */
export const maxIdsPerIn = 100;

export function* inChunks<T>(items: T[], size = maxUpdatesPerCommand): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
