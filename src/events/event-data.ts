import { isTagKey, tagKeyMessage } from '../schemas/tags.ts';

export const maxEventDataKeys = 100;
export const maxEventArrayItems = 100;

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

function describeValueProblem(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : 'must be a finite number';
    case 'object':
      if (value === null) return null;
      if (!Array.isArray(value))
        return 'is a nested object; data values must be strings, numbers, booleans, null, times or arrays';
      if (value.length > maxEventArrayItems) return `is an array of more than ${maxEventArrayItems} elements`;
      if (
        value.every((item) => typeof item === 'string') ||
        value.every((item) => typeof item === 'number' && Number.isFinite(item))
      )
        return null;
      return 'must be an array whose elements are all strings or all finite numbers';
    default:
      return 'is not a JSON value';
  }
}

/** Why event data is refused, as one sentence naming the key, or null when it is acceptable. */
export function eventDataProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data must be an object';
  const entries = Object.entries(data);
  if (entries.length > maxEventDataKeys)
    return `data has ${entries.length} keys; at most ${maxEventDataKeys} are allowed`;
  for (const [key, value] of entries) {
    if (!isTagKey(key)) return `data key "${key}" is not valid: ${tagKeyMessage}`;
    const problem = describeValueProblem(value);
    if (problem) return `data.${key} ${problem}`;
  }
  return null;
}

/** Data as stored: ISO times become dates so conditions compare them as times; everything else is kept as sent. */
export function toStoredData(data: Record<string, unknown>): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    stored[key] = typeof value === 'string' ? (parseIsoTime(value) ?? value) : value;
  }
  return stored;
}

/** Condition values that are ISO times compare as times, since that is how event data stores them. */
export function storedConditionValue(value: unknown): unknown {
  if (typeof value === 'string') return parseIsoTime(value) ?? value;
  if (Array.isArray(value)) return value.map(storedConditionValue);
  return value;
}
