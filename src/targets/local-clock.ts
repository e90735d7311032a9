import type { ProjectSettings, QuietHours } from '../schemas/project-settings.ts';
import type { BatchDevice } from '../queues/deliver.ts';

const minuteMs = 60_000;
const dayMinutes = 24 * 60;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Minutes past local midnight in the zone at this instant. */
export function localMinuteOfDay(at: number, timeZone: string): number {
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(timeZone).formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/** A device's zone: its own, else the project's default. */
export const deviceZone = (device: Pick<BatchDevice, 'timezone'>, settings: ProjectSettings | null) =>
  device.timezone ?? settings?.defaultTimezone ?? 'UTC';

export const clockMinutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

const dayMs = dayMinutes * minuteMs;
const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at this instant, to the minute, written as if it were a UTC time. */
function wallClock(at: number, timeZone: string): number {
  let formatter = wallFormatters.get(timeZone);
  if (!formatter) {
    const fields = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' } as const;
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', ...fields });
    wallFormatters.set(timeZone, formatter);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of formatter.formatToParts(at)) part[type] = Number(value);
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!);
}

const offsetAt = (at: number, timeZone: string) => wallClock(at, timeZone) - Math.floor(at / minuteMs) * minuteMs;

/**
 * The instant the zone's clock first shows this wall time: on the day clocks fall back, a time in the repeated hour
 * is its first occurrence; a time the clocks skip when they spring forward comes as the instant they jump past it.
 */
function firstInstantOf(wall: number, timeZone: string): number {
  const offsets = new Set([
    offsetAt(wall - dayMs, timeZone),
    offsetAt(wall, timeZone),
    offsetAt(wall + dayMs, timeZone),
  ]);
  const instants = [...offsets].map((offset) => wall - offset).filter((at) => wallClock(at, timeZone) === wall);
  return instants.length > 0 ? Math.min(...instants) : wall - offsetAt(wall - dayMs, timeZone);
}

/**
 * The start of the first minute, from the one `from` falls in on, when the zone's clock shows `clock`, daylight-saving
 * changes included (firstInstantOf).
 */
export function nextLocalTime(from: number, timeZone: string, clock: string): number {
  const minuteStart = Math.floor(from / minuteMs) * minuteMs;
  const today = wallClock(minuteStart, timeZone);
  const midnight = today - (((today % dayMs) + dayMs) % dayMs);
  for (let day = 0; ; day++) {
    const instant = firstInstantOf(midnight + day * dayMs + clockMinutes(clock) * minuteMs, timeZone);
    if (instant >= minuteStart) return instant;
  }
}

/**
 * When the project's quiet hours end for a device in this zone, if they cover this instant; else null. The window
 * runs from start up to, not including, end, and may span midnight (22:00 to 08:00); start equal to end is no window.
 */
export function quietUntil(at: number, timeZone: string, quiet: QuietHours): number | null {
  const start = clockMinutes(quiet.start);
  const end = clockMinutes(quiet.end);
  const now = localMinuteOfDay(at, timeZone);
  const inside = start < end ? now >= start && now < end : start > end && (now >= start || now < end);
  if (!inside) return null;
  return Math.floor(at / minuteMs) * minuteMs + ((end - now + dayMinutes) % dayMinutes) * minuteMs;
}
