import type { Deps } from '../deps.ts';
import { notYetStored, pendingFields, readAllPendingCounts } from '../infra/read-gathered-counts.ts';
import { dailyCounts, dayKey, parseDayCountField } from './daily-counts.ts';

export type DayTotals = { sent: number; clicked: number; subscribed: number; conversions: number };

/**
 * Per day (YYYY-MM-DD), the project's daily counts still in Redis that its day documents do not hold yet. Call it
 * within withoutFlushBetween, after reading the documents: `read` names the days read with the flush number each
 * carried (those of a flush under way it has already written); a day not among them had no document written by it.
 */
export async function unstoredDays(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  read: Array<{ day: Date; flush?: number | null }>,
): Promise<Map<string, DayTotals>> {
  const pending = await readAllPendingCounts(deps, dailyCounts, projectId);
  const flushOf = new Map(read.map((stored) => [dayKey(stored.day), stored.flush]));
  const byDay = new Map<string, DayTotals>();
  for (const field of pendingFields(pending)) {
    const { day, name } = parseDayCountField(field);
    const totals = byDay.get(day) ?? { sent: 0, clicked: 0, subscribed: 0, conversions: 0 };
    totals[name] += notYetStored(pending, field, pending.flushId !== null && flushOf.get(day) === pending.flushId);
    byDay.set(day, totals);
  }
  return byDay;
}
