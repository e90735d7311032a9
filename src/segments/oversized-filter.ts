import { matchesValue } from '../conditions/match-data.ts';
import { conditionOps, type ConditionOp } from '../schemas/event-conditions.ts';
import { operatorFilter } from '../conditions/operator-filter.ts';

/**
 * An event condition becomes a list of device _ids (eventConditionFilter), and MongoDB refuses a
 * command over 16 MB: about 100,000 ids at the longest device ids, 210,000 at the SDK's. A filter whose lists take
 * more than this is sent without them, which matches more devices and never fewer, and each device read is then
 * tested here against the whole filter.
 */
const listedBytesBudget = 8 * 1024 * 1024;
/** Per listed _id beside its characters: BSON's type byte, the array index as a key, the length and the NUL. */
const perIdBytes = 16;

export type DeviceFilter = Record<string, unknown>;
type DeviceRead = Record<string, unknown>;
type DeviceTest = (device: DeviceRead) => boolean;

/** Each MongoDB operator the segment filters use, by the condition op it came from (operatorFilter). */
const operatorNames: Record<string, ConditionOp> = Object.fromEntries(
  conditionOps
    .filter((op) => op !== 'exists' && op !== 'notExists')
    .map((op) => [Object.keys(operatorFilter(op, []))[0]!, op]),
);

const branches = (filter: DeviceFilter): DeviceFilter[] => [
  ...((filter.$and as DeviceFilter[] | undefined) ?? []),
  ...((filter.$or as DeviceFilter[] | undefined) ?? []),
];

function listedIds(filter: DeviceFilter): string[] {
  const ids = filter._id as { $in?: string[]; $nin?: string[] } | undefined;
  return [...(ids?.$in ?? []), ...(ids?.$nin ?? [])];
}

function listedBytes(filter: DeviceFilter): number {
  const own = listedIds(filter).reduce((sum, id) => sum + id.length + perIdBytes, 0);
  return branches(filter).reduce((sum, branch) => sum + listedBytes(branch), own);
}

/** The filter without its _id lists: a superset of its devices, since the filters built here never negate a clause. */
function withoutLists(filter: DeviceFilter): DeviceFilter {
  const relaxed: DeviceFilter = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '_id') continue;
    relaxed[key] = key === '$and' || key === '$or' ? (condition as DeviceFilter[]).map(withoutLists) : condition;
  }
  return relaxed;
}

/** The fields the filter reads besides _id, for the projection of the devices it is tested on. */
function filteredFields(filter: DeviceFilter, into = new Set<string>()): Set<string> {
  for (const key of Object.keys(filter)) if (!key.startsWith('$') && key !== '_id') into.add(key);
  for (const branch of branches(filter)) filteredFields(branch, into);
  return into;
}

const isOperators = (condition: unknown): condition is Record<string, unknown> =>
  typeof condition === 'object' &&
  condition !== null &&
  !Array.isArray(condition) &&
  !(condition instanceof Date) &&
  Object.keys(condition).every((key) => key.startsWith('$'));

/** A field's test, by MongoDB's meaning of each operator (matchesValue); tag keys hold no dot. */
function fieldTest(path: string, condition: unknown): DeviceTest {
  const steps = path.split('.');
  const operators = isOperators(condition) ? Object.entries(condition) : [['$eq', condition] as const];
  // An _id list is one string per device: a Set answers at once what a scan of 200,000 would.
  const listed = new Map(
    path === '_id'
      ? operators.flatMap(([op, wanted]) => (op === '$in' || op === '$nin' ? [[op, new Set(wanted as unknown[])]] : []))
      : [],
  );
  return (device) => {
    let holder: unknown = device;
    for (const step of steps.slice(0, -1))
      holder = typeof holder === 'object' && holder !== null ? (holder as DeviceRead)[step] : undefined;
    const last = steps.at(-1)!;
    const present = typeof holder === 'object' && holder !== null && Object.hasOwn(holder, last);
    const stored = present ? (holder as DeviceRead)[last] : undefined;
    return operators.every(([op, wanted]) => {
      if (op === '$exists') return present === wanted;
      if (listed.has(op)) return listed.get(op)!.has(stored) === (op === '$in');
      return matchesValue(present, stored, operatorNames[op]!, wanted);
    });
  };
}

/** The filter as a test of a device read with the fields it names (filteredFields) and its _id. */
export function deviceFilterTest(filter: DeviceFilter): DeviceTest {
  const tests = Object.entries(filter).map(([key, condition]): DeviceTest => {
    if (key === '$and' || key === '$or') {
      const parts = (condition as DeviceFilter[]).map(deviceFilterTest);
      return key === '$and'
        ? (device) => parts.every((test) => test(device))
        : (device) => parts.some((test) => test(device));
    }
    return fieldTest(key, condition);
  });
  return (device) => tests.every((test) => test(device));
}

export interface DeviceFilterPlan {
  /** What MongoDB is sent. */
  query: DeviceFilter;
  /** Set when the query matches more than the filter: each device read must pass it. */
  exact?: { test: DeviceTest; fields: string[] };
}

export function planDeviceFilter(filter: DeviceFilter): DeviceFilterPlan {
  if (listedBytes(filter) <= listedBytesBudget) return { query: filter };
  return {
    query: withoutLists(filter),
    exact: { test: deviceFilterTest(filter), fields: [...filteredFields(filter)] },
  };
}

/** A projection that also reads the fields the exact test needs; a whole subdocument already read covers its fields. */
export function projectionWith(projection: Record<string, 1>, fields: string[]): Record<string, 1> {
  const extended = { ...projection };
  for (const field of fields) if (!(field.split('.')[0]! in projection)) extended[field] = 1;
  return extended;
}
