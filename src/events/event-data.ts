import { isTagKey, tagKeyMessage } from '../schemas/tags.ts';
import { isUnstorableTime, parseIsoTime, unstorableTimeMessage } from '../schemas/iso-time.ts';

export const maxEventDataKeys = 100;
export const maxEventArrayItems = 100;

function describeValueProblem(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return isUnstorableTime(value) ? unstorableTimeMessage : null;
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : 'must be a finite number';
    case 'object':
      if (value === null) return null;
      if (!Array.isArray(value))
        return 'is a nested object; data values must be strings, numbers, booleans, null, times or arrays';
      if (value.length > maxEventArrayItems) return `is an array of more than ${maxEventArrayItems} elements`;
      if (value.every((item) => typeof item === 'string'))
        // Its ISO times are stored as times, as a single one is: one that no store can hold is refused alike.
        return value.some(isUnstorableTime) ? `holds a time: ${unstorableTimeMessage}` : null;
      if (value.every((item) => typeof item === 'number' && Number.isFinite(item))) return null;
      return 'must be an array whose elements are all strings or all finite numbers';
    default:
      return 'is not a JSON value';
  }
}

/** One reason event data is refused: `key` names the entry at fault, absent when the data as a whole is. */
export interface EventDataProblem {
  key?: string;
  message: string;
}

/** Every reason event data is refused, each a sentence naming its key; none when it is acceptable. */
export function eventDataProblems(data: unknown): EventDataProblem[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [{ message: 'data must be an object' }];
  const entries = Object.entries(data);
  if (entries.length > maxEventDataKeys)
    return [{ message: `data has ${entries.length} keys; at most ${maxEventDataKeys} are allowed` }];
  return entries.flatMap(([key, value]): EventDataProblem[] => {
    if (!isTagKey(key)) return [{ key, message: `data key "${key}" is not valid: ${tagKeyMessage}` }];
    const problem = describeValueProblem(value);
    return problem ? [{ key, message: `data.${key} ${problem}` }] : [];
  });
}

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
