// Strict on purpose: only a full date-time with seconds and an explicit zone is a time (CONTRACTS §5).
const isoTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The instant an ISO 8601 string with a zone names, or null for any other string. A near miss such as
 * "2024-04-19 14:23:56" or a time without a zone is not a time: it stays the plain string the customer sent.
 */
export function parseIsoTime(value: string): Date | null {
  const match = isoTimePattern.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return new Date(value);
}

/**
 * Whether a time can be stored and queried: a date outside the years 1 to 9999 (UTC) in a document or a filter fails
 * the whole write or read on the local server (docs/architecture.md#local-server-quirks), and no push use needs one.
 */
export function isStorableTime(time: Date): boolean {
  const year = time.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

export const unstorableTimeMessage = 'is a time outside the years 0001 to 9999 (UTC)';

/** A time a customer sent where any string is welcome: refused only when it names a time that cannot be stored. */
export function isUnstorableTime(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const time = parseIsoTime(value);
  return time !== null && !isStorableTime(time);
}
