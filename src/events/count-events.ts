import type { Models } from '../models/index.ts';
import type { EventDataCondition } from '../schemas/event-conditions.ts';
import { operatorFilter } from '../conditions/operator-filter.ts';
import { storedConditionValue } from '../conditions/event-data.ts';
import { dayMs, startOfUtcDay } from '../infra/utc-day.ts';
import { subjectsCountingFor, type Subject } from './subjects.ts';
import { notYetStored, readPendingCounts, withoutFlushBetween } from '../infra/read-gathered-counts.ts';
import { countField, eventCounts, type CountDeps, type CountKey } from './pending-counts.ts';

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

/**
 * Data fields are validated like tag keys (no leading $, no dot), so data.<field> is a safe path. A field named again
 * goes in $and: merged into one operator object, `ne A` and `ne B` would keep only `ne B`.
 */
export function dataConditionsFilter(where: EventDataCondition[]): Record<string, object> {
  const filter: Record<string, object> = {};
  const again: object[] = [];
  for (const condition of where) {
    const path = `data.${condition.field}`;
    const operator = operatorFilter(condition.op, storedConditionValue(condition.value));
    if (path in filter) again.push({ [path]: operator });
    else filter[path] = operator;
  }
  return again.length > 0 ? { ...filter, $and: again } : filter;
}

export interface EventWindow {
  now: Date;
  since: Date;
  /** Whole UTC days from firstWholeDay up to (not including) today are read from the daily counters. */
  firstWholeDay: Date;
  today: Date;
}

/** The withinDays × 24 hours before now, split into a partial first day, whole days and today so far. */
export function eventWindow(withinDays: number, now = new Date()): EventWindow {
  const since = new Date(now.getTime() - withinDays * dayMs);
  return { now, since, firstWholeDay: new Date(startOfUtcDay(since).getTime() + dayMs), today: startOfUtcDay(now) };
}

/** The days from firstDay up to (not including) endDay: a query per subject. */
export function dailyCountersQueries(
  models: Models,
  query: CountEventsQuery,
  subjects: Subject[],
  firstDay: Date,
  endDay: Date,
) {
  return subjects.map((subject) =>
    models.EventCounter.find(
      { projectId: query.projectId, ...subject, type: query.type, day: { $gte: firstDay, $lt: endDay } },
      { _id: 0, subjectType: 1, subjectId: 1, day: 1, count: 1, flush: 1 },
    ).lean(),
  );
}

/** The whole days of the window, from the counter documents plus what is still pending in Redis. */
async function countWholeDays(
  deps: CountDeps,
  query: CountEventsQuery,
  subjects: Subject[],
  firstDay: Date,
  endDay: Date,
): Promise<number> {
  if (firstDay >= endDay) return 0;
  const countKeys: CountKey[] = [];
  for (let day = firstDay.getTime(); day < endDay.getTime(); day += dayMs) {
    for (const subject of subjects) countKeys.push({ ...subject, type: query.type, day });
  }
  const fields = countKeys.map(countField);
  const { counters, pending } = await withoutFlushBetween(deps, eventCounts, query.projectId, async () => ({
    counters: (await Promise.all(dailyCountersQueries(deps.models, query, subjects, firstDay, endDay))).flat(),
    pending: await readPendingCounts(deps, eventCounts, query.projectId, fields),
  }));
  // While a flush is under way its counts are both in Redis and, for the keys it has reached, in MongoDB.
  const reachedByFlush = new Set<string>();
  let total = 0;
  for (const counter of counters) {
    total += counter.count;
    if (counter.flush === pending.mark.flushId)
      reachedByFlush.add(countField({ ...counter, type: query.type, day: counter.day.getTime() }));
  }
  for (const field of fields) total += notYetStored(pending, field, reachedByFlush.has(field));
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
  const window = eventWindow(query.withinDays, query.now);
  const subjects = await subjectsCountingFor(deps.models, query.projectId, query);
  if (subjects.length === 0) return 0;
  const filters = countedEventsFilters(query, subjects, window);
  const countAll = async (perSubject: object[]) =>
    sum(await Promise.all(perSubject.map((filter) => deps.models.Event.countDocuments(filter))));
  if ('matching' in filters) return countAll(filters.matching);
  const [head, wholeDays, tail] = await Promise.all([
    countAll(filters.head),
    countWholeDays(deps, query, subjects, window.firstWholeDay, window.today),
    countAll(filters.tail),
  ]);
  return head + wholeDays + tail;
}

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);

/**
 * With data conditions the whole window is counted from the events, else only its two partial days (the rest from
 * the counters); each as one filter per subject, whose counts add up.
 */
export function countedEventsFilters(
  query: CountEventsQuery,
  subjects: Subject[],
  window: EventWindow,
): { matching: object[] } | { head: object[]; tail: object[] } {
  const { now, since, firstWholeDay, today } = window;
  const eventFilters = subjects.map((subject) => ({ projectId: query.projectId, ...subject, type: query.type }));
  if (query.where && query.where.length > 0) {
    const where = dataConditionsFilter(query.where);
    return { matching: eventFilters.map((filter) => ({ ...filter, receivedAt: { $gt: since, $lte: now }, ...where })) };
  }
  return {
    head: eventFilters.map((filter) => ({ ...filter, receivedAt: { $gt: since, $lt: firstWholeDay } })),
    tail: eventFilters.map((filter) => ({ ...filter, receivedAt: { $gte: today, $lte: now } })),
  };
}
