import { newestFirstPage, type PageBoundary } from '../infra/newest-first-page.ts';

/** Newest first; the id orders documents created in the same millisecond. */
export const newestFirst = { createdAt: -1, _id: -1 } as const;

/** The documents of a project matching `filter`, sorted by `newestFirst`, `limit` at most. */
export type NewestFirstRead<T> = (
  filter: { projectId: string; createdAt?: Date | { $lt: Date }; _id?: string | { $lt: string } },
  limit: number,
) => Promise<T[]>;

/**
 * The list of a project's templates, segments or journeys, newest first, by pages after a boundary: served by the
 * index {projectId: 1, createdAt: -1, _id: -1}, a range scan that stops after `limit` documents.
 */
export function newestFirstListing<T extends { createdAt: Date; _id: string }>(read: NewestFirstRead<T>) {
  return {
    list(projectId: string, limit: number, before?: PageBoundary): Promise<T[]> {
      return newestFirstPage(limit, before, {
        sameTime: (createdAt, id, count) => read({ projectId, createdAt, _id: { $lt: id } }, count),
        older: (count, olderThan) => read({ projectId, ...(olderThan && { createdAt: { $lt: olderThan } }) }, count),
        placeOf: (item) => ({ time: item.createdAt, key: item._id }),
      });
    },
    /** Where a page ending with the item `id` ends; null when the project has no such item. */
    async boundary(projectId: string, id: string): Promise<PageBoundary | null> {
      const [found] = await read({ projectId, _id: id }, 1);
      return found ? { time: found.createdAt, key: found._id } : null;
    },
  };
}
