import type { ConditionOp, EventDataCondition } from '../schemas/event-conditions.ts';
import { storedConditionValue } from '../events/event-data.ts';

/** Values compare only within one kind, as MongoDB compares them: numbers, strings, times, booleans, null. */
function comparable(value: unknown): { kind: string; key: number | string | boolean | null } | null {
  if (value instanceof Date) return { kind: 'time', key: value.getTime() };
  if (value === null) return { kind: 'null', key: null };
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return { kind: typeof value, key: value };
  return null;
}

function compare(stored: unknown, wanted: unknown): number | null {
  const a = comparable(stored);
  const b = comparable(wanted);
  if (a === null || b === null || a.kind !== b.kind) return null;
  if (a.key === b.key) return 0;
  return (a.key as number | string) < (b.key as number | string) ? -1 : 1;
}

const scalarTests: Partial<Record<ConditionOp, (order: number | null) => boolean>> = {
  gt: (order) => order !== null && order > 0,
  gte: (order) => order !== null && order >= 0,
  lt: (order) => order !== null && order < 0,
  lte: (order) => order !== null && order <= 0,
};

/** An array field matches when one of its elements does, as in a MongoDB query. */
const elements = (stored: unknown): unknown[] => (Array.isArray(stored) ? stored : [stored]);

function matchesOne(data: Record<string, unknown>, condition: EventDataCondition): boolean {
  const present = Object.hasOwn(data, condition.field);
  const stored = data[condition.field];
  const wanted = storedConditionValue(condition.value);
  // MongoDB reads a missing field as null when it looks for null: {f: null} matches it, {f: {$ne: null}} does not.
  const equals = (value: unknown) =>
    present ? elements(stored).some((item) => compare(item, value) === 0) : value === null;
  switch (condition.op) {
    case 'exists':
      return present;
    case 'notExists':
      return !present;
    case 'eq':
      return equals(wanted);
    case 'ne':
      return !equals(wanted);
    case 'in':
      return (wanted as unknown[]).some(equals);
    case 'nin':
      return !(wanted as unknown[]).some(equals);
    default:
      return present && elements(stored).some((item) => scalarTests[condition.op]!(compare(item, wanted)));
  }
}

/**
 * Whether stored event data (ISO times as dates) satisfies every condition, with the meaning the same conditions
 * have as a MongoDB filter on the events (src/events/count-events.ts): a journey trigger and a segment's event
 * condition agree on which events match.
 */
export function matchesDataConditions(data: Record<string, unknown>, where: readonly EventDataCondition[]): boolean {
  return where.every((condition) => matchesOne(data, condition));
}
