import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import { startOfUtcDay } from '../infra/utc-day.ts';
import type { GatheredCounts } from '../infra/gathered-counts.ts';
import { addGatheredCounts } from '../infra/flush-gathered-counts.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';
import { isDuplicateKeyError } from '../infra/ignore-duplicate-keys.ts';

export interface DayCounts {
  sent?: number;
  clicked?: number;
  /** Devices subscribed less devices unsubscribed (or erased while subscribed). */
  subscribed?: number;
  /** Conversions credited to a push that day (CONTRACTS §19), of every conversion event. */
  conversions?: number;
}

export type DailyCountDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'log'>;

export const dayKey = (day: Date) => day.toISOString().slice(0, 10);

/** The day before any count: its document holds the devices subscribed before the counts began. */
export const baselineDay = new Date(0);

export const dailyCountKey = (projectId: string, day: Date) => `${projectId}:${dayKey(day)}`;

/** A gathered count's field: the day (YYYY-MM-DD) and the count's name. */
export const dayCountField = (day: string, name: keyof DayCounts) => `${day}:${name}`;

export function parseDayCountField(field: string): { day: string; name: keyof DayCounts } {
  const [day, name] = field.split(':') as [string, keyof DayCounts];
  return { day, name };
}

const nonZero = (counts: DayCounts) => Object.fromEntries(Object.entries(counts).filter(([, count]) => count !== 0));

/**
 * Each flush adds its counts to the day's document in one upsert per day, stamped with the flush's number: a flush
 * written again matches no document it already wrote (its upsert is then refused by _id), so it adds nothing twice.
 */
export const dailyCounts: GatheredCounts<Pick<Deps, 'models'>> = {
  name: 'daily-counts',
  flushEveryMs: 60 * 1000,
  async write({ models }, projectId, flush, counts) {
    const byDay = new Map<string, Record<string, number>>();
    for (const [field, count] of counts) {
      const { day, name } = parseDayCountField(field);
      byDay.set(day, { ...byDay.get(day), [name]: count });
    }
    const writes = [...byDay].map(([day, changes]) => ({
      updateOne: {
        filter: { _id: `${projectId}:${day}`, $or: [{ flush: { $lt: flush } }, { flush: { $exists: false } }] },
        update: { $inc: changes, $set: { flush }, $setOnInsert: { projectId, day: new Date(day) } },
        upsert: true,
      },
    }));
    await ignoringDuplicateKeys(writes.length, () => models.DailyCount.bulkWrite(writes, { ordered: false }));
  },
};

/**
 * Adds to the project's counts of the UTC day `at` falls on, gathered in Redis (dailyCounts) so that the writers of a
 * busy project never meet on its day's document; counts of zero write nothing. A count is added beside the write of
 * its cause, not in one transaction with it: a process killed between the two may miss or repeat a few, the price of
 * an overview that reads one document a day rather than what happened that day.
 */
export async function addToDay(deps: DailyCountDeps, projectId: string, counts: DayCounts, at = new Date()) {
  const day = dayKey(startOfUtcDay(at));
  const added = new Map(
    Object.entries(counts).map(([name, count]) => [dayCountField(day, name as keyof DayCounts), count ?? 0]),
  );
  await addGatheredCounts(deps, dailyCounts, projectId, added);
}

/**
 * addToDay for a writer that may repeat its last write after a crash (a device import's batch): the counts of each
 * `step` of a `writer` (an id without dots) are added once. A writer's steps only grow; the day keeps each writer's last
 * step and adds only a later one, so a repeat, or a step a lagging run of the same writer reaches late, matches no
 * document, and its upsert then meets the day's _id and is refused as a duplicate, adding nothing.
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
    { _id: dailyCountKey(projectId, day), [path]: { $not: { $gte: step } } },
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
  models.DailyCount.find(
    { projectId, day: { $gte: start } },
    { day: 1, sent: 1, clicked: 1, subscribed: 1, conversions: 1, flush: 1 },
  ).lean();

/**
 * The subscribed changes of the project's days before `start`, the baseline's included, by the same index, with the
 * days among them that the flush numbered `flush` has written (in the same read, so that what it summed and what it
 * says was written agree).
 */
export const subscribedBeforePipeline = (projectId: string, start: Date, flush: number | null = null) => [
  { $match: { projectId, day: { $lt: start } } },
  {
    $group: {
      _id: null,
      subscribed: { $sum: '$subscribed' },
      writtenByFlush: { $push: { $cond: [{ $eq: ['$flush', flush ?? -1] }, '$day', '$$REMOVE'] } },
    },
  },
];

/** What subscribedBeforePipeline answers. */
export interface SubscribedBefore {
  subscribed: number;
  writtenByFlush: Date[];
}
