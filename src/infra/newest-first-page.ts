/**
 * Where the previous page of a newest-first list ended: the time of its last item, and that item's key when the
 * caller named the item. With the key, the page starts with the items of the same millisecond that come after it in
 * {time: -1, _id: -1} order (a journey's sends of one ingest job, two pushes to one device answered together); with a
 * time alone they are skipped.
 */
export interface PageBoundary {
  time: Date;
  key?: string;
}

export interface NewestFirstReads<T> {
  /** Items of exactly `time` whose _id sorts below `key`, newest first. */
  sameTime(time: Date, key: string, limit: number): Promise<T[]>;
  /** Items before `before` (all when undefined), newest first. */
  older(limit: number, before: Date | undefined): Promise<T[]>;
}

/** One page: the rest of the boundary's millisecond first, then what is older, `limit` in all. */
export async function newestFirstPage<T>(
  limit: number,
  before: PageBoundary | undefined,
  reads: NewestFirstReads<T>,
): Promise<T[]> {
  const sameTime = before?.key === undefined ? [] : await reads.sameTime(before.time, before.key, limit);
  if (sameTime.length === limit) return sameTime;
  return [...sameTime, ...(await reads.older(limit - sameTime.length, before?.time))];
}
