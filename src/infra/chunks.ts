/**
 * FerretDB 1.24 stalls on one update command carrying about a hundred statements (measured: 50 take 50 ms, 100 never
 * return), so bulk updates are sent in chunks of this size; real MongoDB is as fast either way.
 */
export const maxUpdatesPerCommand = 50;

export function* inChunks<T>(items: T[], size = maxUpdatesPerCommand): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
