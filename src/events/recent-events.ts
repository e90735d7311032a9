import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import type { EventView, RecentEventsQuery } from '../schemas/events.ts';
import { subjectsCountingFor, type Subject } from './subjects.ts';

/**
 * Newest first. userId and deviceId select the events that count for that user or device (their own and those of
 * their linked devices or user); each combination of filters is served by one of the event indexes.
 */
export async function recentEvents(models: Models, projectId: string, query: RecentEventsQuery): Promise<EventView[]> {
  const bySubject = query.userId !== undefined || query.deviceId !== undefined;
  const subjects = bySubject ? await subjectsCountingFor(models, projectId, query) : null;
  if (subjects !== null && subjects.length === 0) return [];
  const pages = await Promise.all(recentEventsQueries(models, projectId, subjects, query));
  const events = pages.length === 1 ? pages[0]! : pages.flat().sort(newestFirst).slice(0, query.limit);
  return events.map((event) => ({
    id: event._id,
    type: event.type,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    data: event.data,
    receivedAt: event.receivedAt.toISOString(),
  }));
}

type StoredEvent = EventDocument & { _id: string };

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
) {
  return (subjects ?? [{}]).map((subject) =>
    models.Event.find({ projectId, ...subject, ...(query.type !== undefined && { type: query.type }) })
      .sort({ receivedAt: -1, _id: -1 })
      .limit(query.limit)
      .lean<StoredEvent[]>(),
  );
}
