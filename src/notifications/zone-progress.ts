import type { NotificationZones } from '../schemas/notification.ts';

/** A local-time send's outcomes (sent, failed, unsubscribed or capped) by the instant of their zone. */
export type ZoneOutcomes = Map<number, number>;

type Zones = { at?: number | null; devices?: number | null }[] | null | undefined;

/**
 * A local-time send's zones as its notification shows them (CONTRACTS §15): a zone is sent once each device queued
 * for it has its outcome; a send with no zones (not local-time) shows none. An experiment's winner, once its fan-out
 * has queued some, shows its own zones in the test's place (CONTRACTS §19); outcomes are kept by instant alone, so a
 * winner's zone is sent once the test's devices due at the same instant have theirs too.
 */
export function zoneProgress(
  testZones: Zones,
  outcomes: ZoneOutcomes,
  winnerZones?: Zones,
): NotificationZones | undefined {
  const zones = winnerZones && winnerZones.length > 0 ? winnerZones : testZones;
  if (!zones || zones.length === 0) return undefined;
  const due = new Map<number, number>();
  for (const { at, devices } of zones === testZones ? zones : [...zones, ...(testZones ?? [])])
    due.set(at ?? 0, (due.get(at ?? 0) ?? 0) + (devices ?? 0));
  const sent = zones.filter(({ at }) => (outcomes.get(at ?? 0) ?? 0) >= (due.get(at ?? 0) ?? 0)).length;
  return { total: zones.length, sent };
}
