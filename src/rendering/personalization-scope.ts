import type { NotificationData } from '../schemas/notification.ts';
import type { IngestedEvent } from '../queues/event-ingest.ts';

export interface ScopeDevice {
  deviceId: string;
  userId?: string | null;
  tags?: Record<string, unknown> | null;
}

/** The event that triggered a journey's send, bound as entry_event. */
export type EntryEvent = Pick<IngestedEvent, 'type' | 'data'>;

/** The Liquid variables of CONTRACTS §6; entry_event is filled by journeys and empty for direct sends. */
export function personalizationScope(
  device: ScopeDevice,
  data: NotificationData,
  entryEvent: EntryEvent | null = null,
): object {
  return {
    data,
    device: { id: device.deviceId, userId: device.userId ?? null, tags: device.tags ?? {} },
    entry_event: entryEvent ?? {},
  };
}
