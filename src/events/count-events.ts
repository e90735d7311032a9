import type { ConditionOp, EventDataCondition } from '../schemas/event-conditions.ts';
import { parseIsoTime } from './event-data.ts';
import { dayMs, startOfUtcDay } from './utc-day.ts';
import { subjectsCountingFor, subjectsFilter, type Subject } from './subjects.ts';
import { countField, pendingCounts, type CountDeps, type CountKey } from './pending-counts.ts';

export interface CountEventsQuery {
  projectId: string;
  /** One of deviceId and userId: a device counts its own events and its user's; a user, theirs and their devices'. */
  deviceId?: string;
  userId?: string;
  type: string;
  /** The window is the withinDays × 24 hours before `now`. */
  withinDays: number;
  /** Only events whose data matches every condition count. */
  where?: EventDataCondition[];
  now?: Date;
}

/** Condition values that are ISO times compare as times, since that is how event data stores them. */
function asStored(value: unknown): unknown {
  if (typeof value === 'string') return parseIsoTime(value) ?? value;
  if (Array.isArray(value)) return value.map(asStored);
  return value;
}

const operators: Record<ConditionOp, (value: unknown) => object> = {
  eq: (value) => ({ $eq: value }),
  ne: (value) => ({ $ne: value }),
  gt: (value) => ({ $gt: value }),
  gte: (value) => ({ $gte: value }),
  lt: (value) => ({ $lt: value }),
  lte: (value) => ({ $lte: value }),
  in: (value) => ({ $in: Array.isArray(value) ? value : [value] }),
  nin: (value) => ({ $nin: Array.isArray(value) ? value : [value] }),
  exists: () => ({ $exists: true }),
  notExists: () => ({ $exists: false }),
};

/** Data fields are validated like tag keys (no leading $, no dot), so data.<field> is a safe path. */
export function dataConditionsFilter(where: EventDataCondition[]): Record<string, object> {
  const filter: Record<string, object> = {};
  for (const condition of where) {
    const path = `data.${condition.field}`;
    const toOperator: (value: unknown) => object = operators[condition.op];
    filter[path] = { ...filter[path], ...toOperator(asStored(condition.value)) };
  }
  return filter;
}

/** The whole days of the window, from the counter documents plus what is still pending in Redis. */
async function countWholeDays(deps: CountDeps, query: CountEventsQuery, subjects: Subject[], firstDay: Date, endDay: Date): Promise<number> {
  if (firstDay >= endDay) return 0;
  const countKeys: CountKey[] = [];
  for (let day = firstDay.getTime(); day < endDay.getTime(); day += dayMs) {
    for (const subject of subjects) countKeys.push({ ...subject, type: query.type, day });
  }
  const [counters, pending] = await Promise.all([
    deps.models.EventCounter.find(
      { projectId: query.projectId, ...subjectsFilter(subjects), type: query.type, day: { $gte: firstDay, $lt: endDay } },
      { _id: 0, subjectType: 1, subjectId: 1, day: 1, count: 1, flush: 1 },
    ).lean(),
    pendingCounts(deps, query.projectId, countKeys),
  ]);
  // While a flush is under way its counts are both in Redis and, for the keys it has reached, in MongoDB.
  const reachedByFlush = new Set<string>();
  let total = 0;
  for (const counter of counters) {
    total += counter.count;
    if (counter.flush === pending.flushId) reachedByFlush.add(countField({ ...counter, type: query.type, day: counter.day.getTime() }));
  }
  countKeys.forEach((key, index) => {
    total += pending.pending[index]!;
    if (!reachedByFlush.has(countField(key))) total += pending.flushing[index]!;
  });
  return total;
}

/**
 * How many events of a type counted for a device or user in the last withinDays days.
 *
 * Without data conditions, the whole UTC days inside the window come from the daily counters (a few small
 * documents per subject and day) and only the two partial days at its edges from the events themselves. With
 * conditions, the events of those subjects and that type inside the window are counted. Either way the work is
 * bounded by the subjects and the window, through the (projectId, subjectType, subjectId, type, receivedAt | day)
 * indexes, never by the project's whole history.
 */
export async function countEvents(deps: CountDeps, query: CountEventsQuery): Promise<number> {
  const now = query.now ?? new Date();
  const since = new Date(now.getTime() - query.withinDays * dayMs);
  const subjects = await subjectsCountingFor(deps.models, query.projectId, query);
  if (subjects.length === 0) return 0;
  const eventFilter = { projectId: query.projectId, ...subjectsFilter(subjects), type: query.type };
  if (query.where && query.where.length > 0) {
    return deps.models.Event.countDocuments({ ...eventFilter, receivedAt: { $gt: since, $lte: now }, ...dataConditionsFilter(query.where) });
  }
  const firstWholeDay = new Date(startOfUtcDay(since).getTime() + dayMs);
  const today = startOfUtcDay(now);
  const [head, wholeDays, tail] = await Promise.all([
    deps.models.Event.countDocuments({ ...eventFilter, receivedAt: { $gt: since, $lt: firstWholeDay } }),
    countWholeDays(deps, query, subjects, firstWholeDay, today),
    deps.models.Event.countDocuments({ ...eventFilter, receivedAt: { $gte: today, $lte: now } }),
  ]);
  return head + wholeDays + tail;
}
