import type { NotificationData } from '../schemas/notification.ts';
import type { EntryEvent } from '../schemas/events.ts';

export interface ScopeDevice {
  deviceId: string;
  userId?: string | null;
  tags?: Record<string, unknown> | null;
}

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
