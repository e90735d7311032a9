import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import type { EventView, RecentEventsQuery } from '../schemas/events.ts';
import { newestFirstPage, type PageBoundary } from '../infra/newest-first-page.ts';
import { subjectsCountingFor, type Subject } from './subjects.ts';

type StoredEvent = EventDocument & { _id: string };

/** Which part of the newest-first order a read covers: a millisecond after an event of it, or before a time. */
export type EventWindow = { receivedAt?: Date | { $lt: Date }; _id?: { $lt: string } };

/**
 * Newest first, by pages of exactly `limit`: `before` is the place of the last event seen (the events of one request
 * share a millisecond, so a time would not say where in it a page ended). userId and deviceId select the events that
 * count for that user or device (their own and those of their linked devices or user); each combination of filters is
 * served by one of the event indexes, and the reads of several subjects are merged.
 */
export async function recentEvents(
  models: Models,
  projectId: string,
  query: Omit<RecentEventsQuery, 'before'>,
  before?: PageBoundary,
): Promise<EventView[]> {
  const bySubject = query.userId !== undefined || query.deviceId !== undefined;
  const subjects = bySubject ? await subjectsCountingFor(models, projectId, query) : null;
  if (subjects !== null && subjects.length === 0) return [];
  const read = async (window: EventWindow, limit: number) => {
    const pages = await Promise.all(
      recentEventsQueries(models, projectId, subjects, { type: query.type, limit }, window),
    );
    return pages.length === 1 ? pages[0]! : pages.flat().sort(newestFirst).slice(0, limit);
  };
  const events = await newestFirstPage(
    query.limit,
    before,
    {
      sameTime: (time, key, limit) => read({ receivedAt: time, _id: { $lt: key } }, limit),
      older: (limit, olderThan) => read(olderThan === undefined ? {} : { receivedAt: { $lt: olderThan } }, limit),
      placeOf: (event) => ({ time: event.receivedAt, key: event._id }),
    },
    false,
  );
  return events.map((event) => ({
    id: event._id,
    type: event.type,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    data: event.data,
    receivedAt: event.receivedAt.toISOString(),
  }));
}

/** Where a page ending with the event `id` ends; null when the project has no such event. */
export async function eventBoundary(models: Models, projectId: string, id: string): Promise<PageBoundary | null> {
  const event = await models.Event.findById(id, { projectId: 1, receivedAt: 1 }).lean<StoredEvent>();
  return event?.projectId === projectId ? { time: event.receivedAt, key: event._id } : null;
}

/** The order of the event indexes: receivedAt, then _id, both descending. */
function newestFirst(a: StoredEvent, b: StoredEvent): number {
  return b.receivedAt.getTime() - a.receivedAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
}

/** subjects: null for the whole project (one query), else at least one: a query per subject, to be merged. */
export function recentEventsQueries(
  models: Models,
  projectId: string,
  subjects: Subject[] | null,
  query: Pick<RecentEventsQuery, 'type' | 'limit'>,
  window: EventWindow = {},
) {
  return (subjects ?? [{}]).map((subject) =>
    models.Event.find({ projectId, ...subject, ...(query.type !== undefined && { type: query.type }), ...window })
      .sort({ receivedAt: -1, _id: -1 })
      .limit(query.limit)
      .lean<StoredEvent[]>(),
  );
}
