import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import type { EventView, RecentEventsQuery } from '../schemas/events.ts';
import { subjectsCountingFor, subjectsFilter, type Subject } from './subjects.ts';

/**
 * Newest first. userId and deviceId select the events that count for that user or device (their own and those of
 * their linked devices or user); each combination of filters is served by one of the event indexes.
 */
export async function recentEvents(models: Models, projectId: string, query: RecentEventsQuery): Promise<EventView[]> {
  const bySubject = query.userId !== undefined || query.deviceId !== undefined;
  const subjects = bySubject ? await subjectsCountingFor(models, projectId, query) : null;
  if (subjects !== null && subjects.length === 0) return [];
  const events = await recentEventsQuery(models, projectId, subjects, query);
  return events.map((event) => ({
    id: event._id,
    type: event.type,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    data: event.data as Record<string, unknown>,
    receivedAt: event.receivedAt.toISOString(),
  }));
}

/** subjects: null for the whole project, else at least one. */
export function recentEventsQuery(models: Models, projectId: string, subjects: Subject[] | null, query: Pick<RecentEventsQuery, 'type' | 'limit'>) {
  const filter = {
    projectId,
    ...(subjects !== null && subjectsFilter(subjects)),
    ...(query.type !== undefined && { type: query.type }),
  };
  return models.Event.find(filter).sort({ receivedAt: -1, _id: -1 }).limit(query.limit).lean<Array<EventDocument & { _id: string }>>();
}
