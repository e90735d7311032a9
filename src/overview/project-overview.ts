import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { OverviewView } from '../schemas/overview.ts';
import { dayMs, startOfUtcDay } from '../infra/utc-day.ts';
import { readAllPendingCounts, withoutFlushBetween } from '../infra/read-gathered-counts.ts';
import {
  baselineDay,
  dailyCountKey,
  dailyCounts,
  dayKey,
  daysSinceQuery,
  subscribedBeforePipeline,
  type SubscribedBefore,
} from './daily-counts.ts';
import { unstoredDays } from './unstored-days.ts';

const subscribedDevicesCountQuery = (models: Models, projectId: string) =>
  models.Device.countDocuments({ projectId, isSubscribed: true });

/**
 * The baseline of a project created before daily counts were kept (a new one starts with one): the devices subscribed
 * now less the changes counted so far, written by its first overview (one count of its subscribed devices, on the
 * (projectId, isSubscribed, unsubscribedAt) index). A baseline written meanwhile by another request is kept.
 */
async function writeBaseline(models: Models, projectId: string, changesCounted: number): Promise<number> {
  const _id = dailyCountKey(projectId, baselineDay);
  const subscribed = (await subscribedDevicesCountQuery(models, projectId)) - changesCounted;
  const written = await models.DailyCount.updateOne(
    { _id },
    { $setOnInsert: { projectId, day: baselineDay, sent: 0, clicked: 0, subscribed } },
    { upsert: true },
  );
  if (written.upsertedCount === 1) return subscribed;
  return (await models.DailyCount.findById(_id, { subscribed: 1 }).lean())?.subscribed ?? 0;
}

/**
 * A project's last `days` UTC days from its daily counts: pushes sent, devices that clicked and conversions credited
 * each day, and the devices subscribed at each day's end (the changes of every day up to it, summed). Reads at most one document a day
 * of the window, sums one a day before it, and adds the counts still gathered in Redis: never the devices, history
 * or clicks.
 */
export async function projectOverview(
  deps: Pick<Deps, 'models' | 'redis' | 'config'>,
  projectId: string,
  days: number,
  now = new Date(),
): Promise<OverviewView> {
  const { models } = deps;
  const start = new Date(startOfUtcDay(now).getTime() - (days - 1) * dayMs);
  const read = async (flushUnderWay: number | null) => {
    const [window, before, baseline] = await Promise.all([
      daysSinceQuery(models, projectId, start),
      models.DailyCount.aggregate<SubscribedBefore>(subscribedBeforePipeline(projectId, start, flushUnderWay)),
      models.DailyCount.exists({ _id: dailyCountKey(projectId, baselineDay) }),
    ]);
    // The days before the window that the flush under way wrote, with its number: as the window's documents carry it.
    const writtenBefore = (before[0]?.writtenByFlush ?? []).map((day) => ({ day, flush: flushUnderWay }));
    return {
      window,
      before,
      baseline,
      writtenBefore,
      pending: await readAllPendingCounts(deps, dailyCounts, projectId),
    };
  };
  const { window, before, baseline, writtenBefore, pending } = await withoutFlushBetween(
    deps,
    dailyCounts,
    projectId,
    read,
  );
  const unstored = unstoredDays(pending, [...window, ...writtenBefore]);
  const byDay = new Map(window.map((counts) => [dayKey(counts.day), counts]));
  let subscribed = before[0]?.subscribed ?? 0;
  for (const [day, counts] of unstored) if (day < dayKey(start)) subscribed += counts.subscribed;
  const result: OverviewView['days'] = [];
  for (let index = 0; index < days; index += 1) {
    const day = dayKey(new Date(start.getTime() + index * dayMs));
    const [stored, added] = [byDay.get(day), unstored.get(day)];
    subscribed += (stored?.subscribed ?? 0) + (added?.subscribed ?? 0);
    const sent = (stored?.sent ?? 0) + (added?.sent ?? 0);
    const clicked = (stored?.clicked ?? 0) + (added?.clicked ?? 0);
    const conversions = (stored?.conversions ?? 0) + (added?.conversions ?? 0);
    result.push({ day, subscribed, sent, clicked, conversions });
  }
  if (baseline === null) {
    const fromBaseline = await writeBaseline(models, projectId, subscribed);
    for (const entry of result) entry.subscribed += fromBaseline;
  }
  return { days: result };
}
