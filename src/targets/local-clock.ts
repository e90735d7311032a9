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

/**
 * The start of the first minute, from the one `from` falls in on, when the zone's clock shows `clock`. Every zone in use is a
 * whole number of minutes off UTC, so local and UTC minutes start together; across a daylight-saving change the answer
 * may be an hour off, and the push is then checked again when it comes round.
 */
export function nextLocalTime(from: number, timeZone: string, clock: string): number {
  const minuteStart = Math.floor(from / minuteMs) * minuteMs;
  const ahead = (clockMinutes(clock) - localMinuteOfDay(from, timeZone) + dayMinutes) % dayMinutes;
  return minuteStart + ahead * minuteMs;
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
