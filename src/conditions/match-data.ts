import type { ConditionOp, EventDataCondition } from '../schemas/event-conditions.ts';
import { storedConditionValue } from './event-data.ts';

/** Values compare only within one kind, as MongoDB compares them: numbers, strings, times, booleans, null. */
function comparable(value: unknown): { kind: string; key: number | string | boolean | null } | null {
  if (value instanceof Date) return { kind: 'time', key: value.getTime() };
  if (value === null) return { kind: 'null', key: null };
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return { kind: typeof value, key: value };
  return null;
}

/**
 * A UTF-16 unit's place in code point order. JavaScript's < compares units, where a character past U+FFFF (a
 * surrogate pair, from 0xD800) sorts before U+E000–U+FFFF; MongoDB compares UTF-8 bytes, which is code point order,
 * where it sorts after them. Moving the surrogates above the rest restores that order.
 */
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

function compareStrings(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) < codePointRank(y) ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

function compare(stored: unknown, wanted: unknown): number | null {
  const a = comparable(stored);
  const b = comparable(wanted);
  if (a === null || b === null || a.kind !== b.kind) return null;
  if (a.key === b.key) return 0;
  if (a.kind === 'string') return compareStrings(a.key as string, b.key as string);
  return (a.key as number) < (b.key as number) ? -1 : 1;
}

const scalarTests: Partial<Record<ConditionOp, (order: number | null) => boolean>> = {
  gt: (order) => order !== null && order > 0,
  gte: (order) => order !== null && order >= 0,
  lt: (order) => order !== null && order < 0,
  lte: (order) => order !== null && order <= 0,
};

/** An array field matches when one of its elements does, as in a MongoDB query. */
const elements = (stored: unknown): unknown[] => (Array.isArray(stored) ? stored : [stored]);

/**
 * Whether a field (`present`, holding `stored`) satisfies `op` against `wanted`, with MongoDB's meaning: an array
 * matches when one of its elements does; values compare only within one kind; a missing field is null when null is
 * looked for.
 */
export function matchesValue(present: boolean, stored: unknown, op: ConditionOp, wanted: unknown): boolean {
  // MongoDB reads a missing field as null when it looks for null: {f: null} matches it, {f: {$ne: null}} does not.
  const equals = (value: unknown) =>
    present ? elements(stored).some((item) => compare(item, value) === 0) : value === null;
  switch (op) {
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
      return present && elements(stored).some((item) => scalarTests[op]!(compare(item, wanted)));
  }
}

function matchesOne(data: Record<string, unknown>, condition: EventDataCondition): boolean {
  return matchesValue(
    Object.hasOwn(data, condition.field),
    data[condition.field],
    condition.op,
    storedConditionValue(condition.value),
  );
}

/**
 * Whether stored event data (ISO times as dates) satisfies every condition, with the meaning the same conditions
 * have as a MongoDB filter on the events (countEvents): a journey trigger and a segment's event
 * condition agree on which events match.
 */
export function matchesDataConditions(data: Record<string, unknown>, where: readonly EventDataCondition[]): boolean {
  return where.every((condition) => matchesOne(data, condition));
}
