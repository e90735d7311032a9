export const dayMs = 24 * 60 * 60 * 1000;

/** Midnight UTC of the day the instant falls on: the key of the daily event counters. */
export function startOfUtcDay(instant: Date): Date {
  return new Date(Math.floor(instant.getTime() / dayMs) * dayMs);
}
