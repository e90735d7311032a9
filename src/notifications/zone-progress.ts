import type { NotificationZones } from '../schemas/notification.ts';

/** A local-time send's outcomes (sent, failed, unsubscribed or capped) by the instant of their zone. */
export type ZoneOutcomes = Map<number, number>;

/**
 * A local-time send's zones as its notification shows them (CONTRACTS §15): a zone is sent once each device queued
 * for it has its outcome; a send with no zones (not local-time) shows none.
 */
export function zoneProgress(
  zones: { at?: number | null; devices?: number | null }[] | null | undefined,
  outcomes: ZoneOutcomes,
): NotificationZones | undefined {
  if (!zones || zones.length === 0) return undefined;
  const sent = zones.filter(({ at, devices }) => (outcomes.get(at ?? 0) ?? 0) >= (devices ?? 0)).length;
  return { total: zones.length, sent };
}
