import type { Models } from '../models/index.ts';
import { startOfUtcDay } from '../infra/utc-day.ts';
import { isDuplicateKeyError } from '../infra/ignore-duplicate-keys.ts';

export interface DayCounts {
  sent?: number;
  clicked?: number;
  /** Devices subscribed less devices unsubscribed (or erased while subscribed). */
  subscribed?: number;
}

export const dayKey = (day: Date) => day.toISOString().slice(0, 10);

/** The day before any count: its document holds the devices subscribed before the counts began. */
export const baselineDay = new Date(0);

export const dailyCountKey = (projectId: string, day: Date) => `${projectId}:${dayKey(day)}`;

const nonZero = (counts: DayCounts) => Object.fromEntries(Object.entries(counts).filter(([, count]) => count !== 0));

/**
 * Adds to the project's counts of the UTC day `at` falls on, one upsert; counts of zero write nothing. A count is
 * added beside the write of its cause, not in one transaction with it: a process killed between the two may miss or
 * repeat a few, the price of an overview that reads one document a day rather than what happened that day.
 */
export async function addToDay(
  models: Pick<Models, 'DailyCount'>,
  projectId: string,
  counts: DayCounts,
  at = new Date(),
) {
  const changes = nonZero(counts);
  if (Object.keys(changes).length === 0) return;
  const day = startOfUtcDay(at);
  await models.DailyCount.updateOne(
    { _id: dailyCountKey(projectId, day) },
    { $inc: changes, $setOnInsert: { projectId, day } },
    { upsert: true },
  );
}

/**
 * addToDay for a writer that may repeat its last write after a crash (a device import's batch): the counts of each
 * `step` of a `writer` (an id without dots) are added once. The day keeps each writer's last step, so a repeat matches
 * no document, and its upsert then meets the day's _id and is refused as a duplicate, adding nothing.
 */
export async function addToDayOnce(
  models: Pick<Models, 'DailyCount'>,
  projectId: string,
  counts: DayCounts,
  at: Date,
  { writer, step }: { writer: string; step: number },
) {
  const changes = nonZero(counts);
  if (Object.keys(changes).length === 0) return;
  const day = startOfUtcDay(at);
  const path = `addedBy.${writer}`;
  await models.DailyCount.updateOne(
    { _id: dailyCountKey(projectId, day), [path]: { $ne: step } },
    { $inc: changes, $setOnInsert: { projectId, day }, $set: { [path]: step } },
    { upsert: true },
  ).catch((error: unknown) => {
    if (!isDuplicateKeyError(error)) throw error;
  });
}

/** A new project's baseline: no device before its counts began, so that its overview never counts its devices. */
export async function startDailyCounts(models: Pick<Models, 'DailyCount'>, projectId: string): Promise<void> {
  await models.DailyCount.create({ _id: dailyCountKey(projectId, baselineDay), projectId, day: baselineDay });
}

/** The project's days from `start` on, by the (projectId, day) index. */
export const daysSinceQuery = (models: Models, projectId: string, start: Date) =>
  models.DailyCount.find({ projectId, day: { $gte: start } }, { day: 1, sent: 1, clicked: 1, subscribed: 1 }).lean();

/** The subscribed changes of the project's days before `start`, the baseline's included, by the same index. */
export const subscribedBeforePipeline = (projectId: string, start: Date) => [
  { $match: { projectId, day: { $lt: start } } },
  { $group: { _id: null, subscribed: { $sum: '$subscribed' } } },
];
