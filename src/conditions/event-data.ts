import { parseIsoTime } from '../schemas/iso-time.ts';

const storedScalar = (value: unknown) => (typeof value === 'string' ? (parseIsoTime(value) ?? value) : value);

/**
 * Data as stored: ISO times become dates, in arrays too, so conditions compare them as times (and a condition's time
 * is a date); everything else is kept as sent.
 */
export function toStoredData(data: Record<string, unknown>): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    stored[key] = Array.isArray(value) ? value.map(storedScalar) : storedScalar(value);
  }
  return stored;
}

/** Condition values that are ISO times compare as times, since that is how event data stores them. */
export function storedConditionValue(value: unknown): unknown {
  if (typeof value === 'string') return parseIsoTime(value) ?? value;
  if (Array.isArray(value)) return value.map(storedConditionValue);
  return value;
}
