import type { Models } from '../models/index.ts';
import type { OverviewView } from '../schemas/overview.ts';
import { dayMs, startOfUtcDay } from '../infra/utc-day.ts';
import { baselineDay, dailyCountKey, dayKey, daysSinceQuery, subscribedBeforePipeline } from './daily-counts.ts';

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
 * A project's last `days` UTC days from its daily counts: pushes sent and devices that clicked each day, and the
 * devices subscribed at each day's end (the changes of every day up to it, summed). Reads at most one document a day
 * of the window, and sums one a day before it: never the devices, history or clicks.
 */
export async function projectOverview(
  models: Models,
  projectId: string,
  days: number,
  now = new Date(),
): Promise<OverviewView> {
  const start = new Date(startOfUtcDay(now).getTime() - (days - 1) * dayMs);
  const [window, before, baseline] = await Promise.all([
    daysSinceQuery(models, projectId, start),
    models.DailyCount.aggregate<{ subscribed: number }>(subscribedBeforePipeline(projectId, start)),
    models.DailyCount.exists({ _id: dailyCountKey(projectId, baselineDay) }),
  ]);
  const byDay = new Map(window.map((counts) => [dayKey(counts.day), counts]));
  let subscribed = before[0]?.subscribed ?? 0;
  if (baseline === null) {
    const changesCounted = window.reduce((sum, counts) => sum + (counts.subscribed ?? 0), subscribed);
    subscribed += await writeBaseline(models, projectId, changesCounted);
  }
  const result: OverviewView['days'] = [];
  for (let index = 0; index < days; index += 1) {
    const day = dayKey(new Date(start.getTime() + index * dayMs));
    const counts = byDay.get(day);
    subscribed += counts?.subscribed ?? 0;
    result.push({ day, subscribed, sent: counts?.sent ?? 0, clicked: counts?.clicked ?? 0 });
  }
  return { days: result };
}
