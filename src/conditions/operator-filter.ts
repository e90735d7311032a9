import type { ConditionOp } from '../schemas/event-conditions.ts';

const toList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

const operators: Record<ConditionOp, (value: unknown) => object> = {
  eq: (value) => ({ $eq: value }),
  ne: (value) => ({ $ne: value }),
  gt: (value) => ({ $gt: value }),
  gte: (value) => ({ $gte: value }),
  lt: (value) => ({ $lt: value }),
  lte: (value) => ({ $lte: value }),
  in: (value) => ({ $in: toList(value) }),
  nin: (value) => ({ $nin: toList(value) }),
  exists: () => ({ $exists: true }),
  notExists: () => ({ $exists: false }),
};

/**
 * The MongoDB operator of a condition on one field (a tag or an event data field). MongoDB semantics apply as they
 * are: gt/gte/lt/lte compare only values of the same type (numbers with numbers, strings with strings, times with
 * times), and ne/nin also match documents without the field.
 */
export function operatorFilter(op: ConditionOp, value: unknown): object {
  return operators[op](value);
}
