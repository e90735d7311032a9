import { notYetStored, pendingFields, type PendingRead } from '../infra/read-gathered-counts.ts';
import { dayKey, parseDayCountField } from './daily-counts.ts';

export type DayTotals = { sent: number; clicked: number; subscribed: number; conversions: number };

/**
 * Per day (YYYY-MM-DD), the project's daily counts still in Redis (`pending`) that its day documents do not hold yet.
 * `read` names the days read before Redis, with the flush number each carried (those of a flush under way it has
 * already written); a day not among them had no document written by it.
 */
export function unstoredDays(
  pending: PendingRead,
  read: Array<{ day: Date; flush?: number | null }>,
): Map<string, DayTotals> {
  const flushOf = new Map(read.map((stored) => [dayKey(stored.day), stored.flush]));
  const byDay = new Map<string, DayTotals>();
  for (const field of pendingFields(pending)) {
    const { day, name } = parseDayCountField(field);
    const totals = byDay.get(day) ?? { sent: 0, clicked: 0, subscribed: 0, conversions: 0 };
    totals[name] += notYetStored(
      pending,
      field,
      pending.mark.flushId !== null && flushOf.get(day) === pending.mark.flushId,
    );
    byDay.set(day, totals);
  }
  return byDay;
}
