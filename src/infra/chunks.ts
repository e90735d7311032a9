/**
 * Bounds how many writes one step sends at once (tags-by-user runs its per-device updates 50 at a time, so a user
 * with thousands of devices neither floods the connection pool nor holds a worker slot with one huge command).
 */
export const maxUpdatesPerCommand = 50;

export function* inChunks<T>(items: T[], size = maxUpdatesPerCommand): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
