/**
 * Where the previous page of a newest-first list ended: the time of its last item, and that item's key when the
 * caller named the item. With the key, the page starts with the items of the same millisecond that come after it in
 * {time: -1, _id: -1} order (a journey's sends of one ingest job, two pushes to one device answered together); with a
 * time alone it starts before that millisecond, which the previous page held whole.
 */
export interface PageBoundary {
  time: Date;
  key?: string;
}

export interface NewestFirstReads<T> {
  /** Items of exactly `time` whose _id sorts below `key`, newest first. */
  sameTime(time: Date, key: string, limit: number): PromiseLike<T[]>;
  /** Items before `before` (all when undefined), newest first. */
  older(limit: number, before: Date | undefined): PromiseLike<T[]>;
  /** An item's place in the order. */
  placeOf(item: T): Required<PageBoundary>;
}

/** Beyond any burst seen: a journey's sends of one ingest job (at most 500 events) share a millisecond. */
const maxSameMillisecond = 10_000;

/**
 * One page: the rest of the boundary's millisecond first, then what is older, `limit` in all. Where a client may page
 * by the time of the last item (CONTRACTS §8's `before=<ISO time>`, which skips that millisecond), a full page then
 * takes the rest of its last millisecond too, so that it misses nothing: such a page holds more than `limit` items,
 * by as many as shared that millisecond. A list paged by item alone keeps to `limit`.
 */
export async function newestFirstPage<T>(
  limit: number,
  before: PageBoundary | undefined,
  reads: NewestFirstReads<T>,
  pagedByTime = true,
): Promise<T[]> {
  const sameTime = before?.key === undefined ? [] : await reads.sameTime(before.time, before.key, limit);
  const page =
    sameTime.length === limit ? sameTime : [...sameTime, ...(await reads.older(limit - sameTime.length, before?.time))];
  if (page.length < limit || !pagedByTime) return page;
  const last = reads.placeOf(page.at(-1)!);
  return [...page, ...(await reads.sameTime(last.time, last.key, maxSameMillisecond))];
}
