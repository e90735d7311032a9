import { newestFirstPage, type PageBoundary } from '../infra/newest-first-page.ts';

/** Newest first; the id orders documents created in the same millisecond. */
export const newestFirst = { createdAt: -1, _id: -1 } as const;

/** The documents of a project matching `filter` (their createdAt and _id), sorted by `newestFirst`, `limit` at most. */
export type NewestFirstRead<T> = (
  filter: { projectId: string; createdAt?: Date | { $lt: Date }; _id?: { $lt: string } },
  limit: number,
) => Promise<T[]>;

/**
 * One page of a project's templates, segments or journeys, newest first, after the boundary: served by the index
 * {projectId: 1, createdAt: -1, _id: -1}, a range scan that stops after `limit` documents.
 */
export function listNewestFirst<T extends { createdAt: Date; _id: string }>(
  read: NewestFirstRead<T>,
  projectId: string,
  limit: number,
  before: PageBoundary | undefined,
): Promise<T[]> {
  return newestFirstPage(limit, before, {
    sameTime: (createdAt, id, count) => read({ projectId, createdAt, _id: { $lt: id } }, count),
    older: (count, olderThan) => read({ projectId, ...(olderThan && { createdAt: { $lt: olderThan } }) }, count),
    placeOf: (item) => ({ time: item.createdAt, key: item._id }),
  });
}
