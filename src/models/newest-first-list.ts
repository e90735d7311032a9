import { newestFirstPage, type PageBoundary } from '../infra/newest-first-page.ts';

/** Newest first; the id orders documents created in the same millisecond. */
export const newestFirst = { createdAt: -1, _id: -1 } as const;

export type NewestFirstFilter = { projectId: string; createdAt?: Date | { $lt: Date }; _id?: string | { $lt: string } };

/** A project's documents created before `before` (all when undefined). */
export const createdBefore = (projectId: string, before: Date | undefined): NewestFirstFilter => ({
  projectId,
  ...(before && { createdAt: { $lt: before } }),
});

/** A project's documents created in the same millisecond as one, after it in the newest-first order. */
export const createdWith = (projectId: string, createdAt: Date, id: string): NewestFirstFilter => ({
  projectId,
  createdAt,
  _id: { $lt: id },
});

/** The documents of a project matching `filter`, sorted by `newestFirst`, `limit` at most: a query, or its answer. */
export type NewestFirstRead<T> = (filter: NewestFirstFilter, limit: number) => PromiseLike<T[]>;

/**
 * The list of a project's notifications, templates, segments or journeys, newest first, by pages after a boundary:
 * served by the index {projectId: 1, createdAt: -1, _id: -1}, a range scan that stops after `limit` documents.
 */
export function newestFirstListing<T extends { createdAt: Date; _id: string }>(read: NewestFirstRead<T>) {
  return {
    list(projectId: string, limit: number, before?: PageBoundary): Promise<T[]> {
      return newestFirstPage(limit, before, {
        sameTime: (createdAt, id, count) => read(createdWith(projectId, createdAt, id), count),
        older: (count, olderThan) => read(createdBefore(projectId, olderThan), count),
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
