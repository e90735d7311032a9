import type { Models } from '../models/index.ts';
import type { EventDataCondition } from '../schemas/event-conditions.ts';
import { operatorFilter } from '../conditions/operator-filter.ts';
import { storedConditionValue } from './event-data.ts';
import { dayMs, startOfUtcDay } from './utc-day.ts';

export interface CountEventsQuery {
  projectId: string;
  /** Exactly one of deviceId and userId: a device counts its own events and those of its user. */
  deviceId?: string;
  userId?: string;
  type: string;
  /** The window is the withinDays × 24 hours before `now`. */
  withinDays: number;
  /** Only events whose data matches every condition count. */
  where?: EventDataCondition[];
  now?: Date;
}


/** Data fields are validated like tag keys (no leading $, no dot), so data.<field> is a safe path. */
export function dataConditionsFilter(where: EventDataCondition[]): Record<string, object> {
  const filter: Record<string, object> = {};
  for (const condition of where) {
    const path = `data.${condition.field}`;
    filter[path] = { ...filter[path], ...operatorFilter(condition.op, storedConditionValue(condition.value)) };
  }
  return filter;
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

function subjectOf(query: CountEventsQuery) {
  if ((query.deviceId === undefined) === (query.userId === undefined)) throw new Error('countEvents takes exactly one of deviceId and userId');
  return query.deviceId !== undefined
    ? { counter: { subjectType: 'device' as const, subjectId: query.deviceId }, events: { deviceIds: query.deviceId } }
    : { counter: { subjectType: 'user' as const, subjectId: query.userId! }, events: { userId: query.userId! } };
}

/**
 * How many events of a type counted for a device or user in the last withinDays days.
 *
 * Without data conditions, the whole days inside the window are read from the daily counters (one small document
 * per day) and only the two partial days at its edges from the events themselves. With conditions, the events of
 * that subject and type inside the window are counted. Either way the indexes (projectId, subject, type, time)
 * bound the work to the subject and the window, never the project's whole history.
 */
export async function countEvents(models: Models, query: CountEventsQuery): Promise<number> {
  const { now, since, firstWholeDay, today } = eventWindow(query.withinDays, query.now);
  const subject = subjectOf(query);
  const eventFilter = { projectId: query.projectId, ...subject.events, type: query.type };
  if (query.where && query.where.length > 0) {
    return models.Event.countDocuments({ ...eventFilter, receivedAt: { $gt: since, $lte: now }, ...dataConditionsFilter(query.where) });
  }
  const [head, wholeDays, tail] = await Promise.all([
    models.Event.countDocuments({ ...eventFilter, receivedAt: { $gt: since, $lt: firstWholeDay } }),
    models.EventCounter.find({ projectId: query.projectId, ...subject.counter, type: query.type, day: { $gte: firstWholeDay, $lt: today } }, { _id: 0, count: 1 }).lean(),
    models.Event.countDocuments({ ...eventFilter, receivedAt: { $gte: today, $lte: now } }),
  ]);
  return head + tail + wholeDays.reduce((sum, counter) => sum + counter.count, 0);
}
