import type { Models } from '../models/index.ts';
import { flushCountsNow, type CountDeps } from '../events/pending-counts.ts';
import { deviceKey } from '../models/device.ts';
import type { CountOp, EventCondition } from '../schemas/segment.ts';
import { dataConditionsFilter, eventWindow } from '../events/count-events.ts';

const countPasses: Record<CountOp, (count: number, value: number) => boolean> = {
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

const add = (counts: Counts, id: string, count: number) => counts.set(id, (counts.get(id) ?? 0) + count);

/** Events matching the filter, counted per subject they were reported for (a device or a user). */
async function countEventsBySubject(models: Models, filter: object, into: SubjectCounts): Promise<void> {
  const cursor = models.Event.find(filter, { _id: 0, subjectType: 1, subjectId: 1 }).lean().cursor({ batchSize: 5000 });
  for await (const event of cursor) add(event.subjectType === 'device' ? into.devices : into.users, event.subjectId, 1);
}

/**
 * Every device and user with at least one matching event in the window, with its count: from the daily counters
 * for the whole days (one $group over the counters of that type, server side) and from the events of the two
 * partial days at the edges; with data conditions, from the matching events of the window. The work is bounded by
 * the project's activity of that event type in the window, not by its number of devices.
 */
async function subjectCounts(models: Models, projectId: string, condition: EventCondition, now: Date): Promise<SubjectCounts> {
  const counts: SubjectCounts = { devices: new Map(), users: new Map() };
  const window = eventWindow(condition.withinDays, now);
  const events = { projectId, type: condition.event };
  if (condition.where && condition.where.length > 0) {
    await countEventsBySubject(models, { ...events, receivedAt: { $gt: window.since, $lte: window.now }, ...dataConditionsFilter(condition.where) }, counts);
    return counts;
  }
  const wholeDays = models.EventCounter.aggregate<{ _id: { kind: 'device' | 'user'; id: string }; count: number }>([
    { $match: { projectId, type: condition.event, day: { $gte: window.firstWholeDay, $lt: window.today } } },
    { $group: { _id: { kind: '$subjectType', id: '$subjectId' }, count: { $sum: '$count' } } },
  ]);
  for await (const counter of wholeDays.cursor({ batchSize: 5000 })) add(counter._id.kind === 'device' ? counts.devices : counts.users, counter._id.id, counter.count);
  await countEventsBySubject(models, { ...events, receivedAt: { $gt: window.since, $lt: window.firstWholeDay } }, counts);
  await countEventsBySubject(models, { ...events, receivedAt: { $gte: window.today, $lte: window.now } }, counts);
  return counts;
}

/**
 * An event condition as a filter on devices. A device counts its own events and those reported for its user
 * (CONTRACTS §7: "for the device or its user"), by the links as they are now; that is what countEvents answers for
 * the device too. Another device of the same user does not count: a purchase on one phone is that phone's.
 *
 * Only devices and users with activity have a count above 0. When 0 itself does not satisfy the condition (e.g.
 * count gte 2) the filter is "one of the passing devices"; when it does (count lt 2, count eq 0) it is "none of the
 * failing devices", so a complement never has to be listed. Either list is bounded by the active devices and the
 * devices of active users.
 */
export async function eventConditionFilter(deps: CountDeps, projectId: string, condition: EventCondition, now: Date): Promise<object> {
  const { models } = deps;
  await flushCountsNow(deps, projectId);
  const counts = await subjectCounts(models, projectId, condition, now);
  const effective = new Map(counts.devices);
  if (counts.users.size > 0) {
    const devicesOfUsers = models.Device.find({ projectId, userId: { $in: [...counts.users.keys()] } }, { _id: 0, deviceId: 1, userId: 1 }).lean().cursor({ batchSize: 5000 });
    for await (const device of devicesOfUsers) add(effective, device.deviceId, counts.users.get(device.userId!) ?? 0);
  }
  const passes = (count: number) => countPasses[condition.count.op](count, condition.count.value);
  const zeroPasses = passes(0);
  const listed: string[] = [];
  for (const [deviceId, count] of effective) if (passes(count) !== zeroPasses) listed.push(deviceKey(projectId, deviceId));
  return { _id: { [zeroPasses ? '$nin' : '$in']: listed } };
}
