import type { Deps } from '../deps.ts';
import { notYetStored, pendingFields, readAllPendingCounts } from '../infra/read-gathered-counts.ts';
import { dailyCounts, dayKey, parseDayCountField } from './daily-counts.ts';

export type DayTotals = { sent: number; clicked: number; subscribed: number; conversions: number };

/**
 * Per day (YYYY-MM-DD), the project's daily counts still in Redis that its day documents do not hold yet. Call it
 * after reading the documents, within withoutFlushBetween: the documents a flush under way already wrote carry its
 * number (read again by _id for the days the caller did not read).
 */
export async function unstoredDays(
  deps: Pick<Deps, 'models' | 'redis' | 'config'>,
  projectId: string,
  read: Array<{ day: Date; flush?: number | null }>,
): Promise<Map<string, DayTotals>> {
  const pending = await readAllPendingCounts(deps, dailyCounts, projectId);
  const fields = [...pendingFields(pending)].map((field) => ({ field, ...parseDayCountField(field) }));
  const flushOf = new Map(read.map((stored) => [dayKey(stored.day), stored.flush]));
  const unread = [...new Set(fields.map(({ day }) => day))].filter((day) => !flushOf.has(day));
  if (pending.flushId !== null && unread.length > 0) {
    const ids = unread.map((day) => `${projectId}:${day}`);
    for (const stored of await deps.models.DailyCount.find({ _id: { $in: ids } }, { day: 1, flush: 1 }).lean())
      flushOf.set(dayKey(stored.day), stored.flush);
  }
  const byDay = new Map<string, DayTotals>();
  for (const { field, day, name } of fields) {
    const totals = byDay.get(day) ?? { sent: 0, clicked: 0, subscribed: 0, conversions: 0 };
    totals[name] += notYetStored(pending, field, pending.flushId !== null && flushOf.get(day) === pending.flushId);
    byDay.set(day, totals);
  }
  return byDay;
}
