import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import type { EventView, RecentEventsQuery } from '../schemas/events.ts';

/** Newest first; every combination of filters is served by one of the event indexes (src/models/event.ts). */
export async function recentEvents(models: Models, projectId: string, query: RecentEventsQuery): Promise<EventView[]> {
  const filter = {
    projectId,
    ...(query.userId !== undefined && { userId: query.userId }),
    ...(query.deviceId !== undefined && { deviceIds: query.deviceId }),
    ...(query.type !== undefined && { type: query.type }),
  };
  const events = await models.Event.find(filter).sort({ receivedAt: -1, _id: -1 }).limit(query.limit).lean<Array<EventDocument & { _id: string }>>();
  return events.map((event) => ({
    id: event._id,
    type: event.type,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    userId: event.userId ?? null,
    deviceIds: event.deviceIds,
    data: event.data as Record<string, unknown>,
    receivedAt: event.receivedAt.toISOString(),
  }));
}
