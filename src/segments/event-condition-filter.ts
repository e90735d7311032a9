import type { PipelineStage } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { SubjectType } from '../schemas/events.ts';
import type { CountDeps } from '../events/pending-counts.ts';
import { flushFinishedDays } from '../events/flush-counts.ts';
import { deviceKey } from '../models/device.ts';
import type { CountOp, EventCondition } from '../schemas/segment.ts';
import { dataConditionsFilter, eventWindow } from '../events/count-events.ts';
import { startOfUtcDay } from '../infra/utc-day.ts';
import { inChunks } from '../infra/chunks.ts';

export const countPasses: Record<CountOp, (count: number, value: number) => boolean> = {
  eq: (count, value) => count === value,
  ne: (count, value) => count !== value,
  gt: (count, value) => count > value,
  gte: (count, value) => count >= value,
  lt: (count, value) => count < value,
  lte: (count, value) => count <= value,
};

type Counts = Map<string, number>;

interface SubjectCounts {
  devices: Counts;
  users: Counts;
}

const usersPerQuery = 10_000;

const add = (counts: Counts, id: string, count: number) => counts.set(id, (counts.get(id) ?? 0) + count);

export function eventSubjectsQuery(models: Models, filter: object) {
  return models.Event.find(filter, { _id: 0, subjectType: 1, subjectId: 1 }).lean();
}

/** Events matching the filter, counted per subject they were reported for (a device or a user). */
async function countEventsBySubject(models: Models, filter: object, into: SubjectCounts): Promise<void> {
  for await (const event of eventSubjectsQuery(models, filter).cursor({ batchSize: 5000 }))
    add(event.subjectType === 'device' ? into.devices : into.users, event.subjectId, 1);
}

export interface EventConditionQueries {
  /** Per subject, the count of the whole days of the window from the daily counters; none with data conditions. */
  counters: PipelineStage[] | null;
  /** The events counted one by one: the window's two partial days, or with data conditions the whole window. */
  events: object[];
}

/**
 * What counting an event condition reads, apart from how it is read, so that the query-plan tests explain the
 * very filters: from the daily counters for the whole days (one $group over the counters of that type, server side)
 * and from the events of the two partial days at the edges; with data conditions, from the matching events of the window.
 */
export function eventConditionQueries(projectId: string, condition: EventCondition, now: Date): EventConditionQueries {
  const window = eventWindow(condition.withinDays, now);
  const events = { projectId, type: condition.event };
  if (condition.where && condition.where.length > 0) {
    return {
      counters: null,
      events: [
        { ...events, receivedAt: { $gt: window.since, $lte: window.now }, ...dataConditionsFilter(condition.where) },
      ],
    };
  }
  return {
    counters: [
      { $match: { projectId, type: condition.event, day: { $gte: window.firstWholeDay, $lt: window.today } } },
      { $group: { _id: { kind: '$subjectType', id: '$subjectId' }, count: { $sum: '$count' } } },
    ],
    events: [
      { ...events, receivedAt: { $gt: window.since, $lt: window.firstWholeDay } },
      { ...events, receivedAt: { $gte: window.today, $lte: window.now } },
    ],
  };
}

/**
 * Every device and user with at least one matching event in the window, with its count (see eventConditionQueries).
 * The work is bounded by the project's activity of that event type in the window, not by its number of devices.
 * Only a read of the counters needs the finished days' counts out of Redis first.
 */
async function subjectCounts(
  deps: CountDeps,
  projectId: string,
  condition: EventCondition,
  now: Date,
): Promise<SubjectCounts> {
  const { models } = deps;
  const counts: SubjectCounts = { devices: new Map(), users: new Map() };
  const queries = eventConditionQueries(projectId, condition, now);
  if (queries.counters !== null) {
    await flushFinishedDays(deps, projectId, startOfUtcDay(now));
    const wholeDays = models.EventCounter.aggregate<{ _id: { kind: SubjectType; id: string }; count: number }>(
      queries.counters,
    );
    for await (const counter of wholeDays.cursor({ batchSize: 5000 }))
      add(counter._id.kind === 'device' ? counts.devices : counts.users, counter._id.id, counter.count);
  }
  for (const filter of queries.events) await countEventsBySubject(models, filter, counts);
  return counts;
}

/** The devices of the users, to count their users' events for them. */
export function devicesOfUsersQuery(models: Models, projectId: string, userIds: string[]) {
  return models.Device.find({ projectId, userId: { $in: userIds } }, { _id: 0, deviceId: 1, userId: 1 }).lean();
}

/**
 * An event condition as a filter on devices. A device counts its own events and those reported for its user
 * (CONTRACTS §7: "for the device or its user"), by the links as they are now; that is what countEvents answers for
 * the device too. Another device of the same user does not count: a purchase on one phone is that phone's.
 *
 * Only devices and users with activity have a count above 0. When 0 itself does not satisfy the condition (e.g.
 * count gte 2) the filter is "one of the passing devices"; when it does (count lt 2, count eq 0) it is "none of the
 * failing devices", so a complement never has to be listed. Either list is bounded by the active devices and the
 * devices of active users; a list too long for one command is tested in the process (planDeviceFilter).
 */
export async function eventConditionFilter(
  deps: CountDeps,
  projectId: string,
  condition: EventCondition,
  now: Date,
): Promise<object> {
  const { models } = deps;
  const counts = await subjectCounts(deps, projectId, condition, now);
  const effective = new Map(counts.devices);
  // In slices: the user ids of a busy window would not fit one command (16 MB).
  for (const userIds of inChunks([...counts.users.keys()], usersPerQuery)) {
    const devicesOfUsers = devicesOfUsersQuery(models, projectId, userIds).cursor({ batchSize: 5000 });
    for await (const device of devicesOfUsers) add(effective, device.deviceId, counts.users.get(device.userId!) ?? 0);
  }
  const passes = (count: number) => countPasses[condition.count.op](count, condition.count.value);
  const zeroPasses = passes(0);
  const listed: string[] = [];
  for (const [deviceId, count] of effective)
    if (passes(count) !== zeroPasses) listed.push(deviceKey(projectId, deviceId));
  return { _id: { [zeroPasses ? '$nin' : '$in']: listed } };
}
