import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { GatheredCounts } from '../infra/gathered-counts.ts';
import {
  notYetStored,
  pendingFields,
  readAllPendingCounts,
  withoutFlushBetween,
} from '../infra/read-gathered-counts.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';
import { dayMs, startOfUtcDay } from '../infra/utc-day.ts';
import type { EventTypeView, StoredEventType } from '../schemas/events.ts';

/** The days the catalog counts: today and the 29 before it, in UTC. */
export const catalogDays = 30;

const dayKey = (day: number) => new Date(day).toISOString().slice(0, 10);
const typeDayField = (type: string, day: number) => JSON.stringify([type, day]);
const parseTypeDayField = (field: string) => JSON.parse(field) as [type: string, day: number];
const typeDayId = (projectId: string, type: string, day: number) => JSON.stringify([projectId, type, day]);

/**
 * A project's events per type and UTC day, gathered in Redis as they arrive and added by each flush in one upsert per
 * type and day, stamped with the flush's number: a flush written again matches no document it wrote (its upsert is
 * then refused by _id), so it adds nothing twice.
 */
export const eventTypeCounts: GatheredCounts<Pick<Deps, 'models'>> = {
  name: 'event-type-counts',
  flushEveryMs: 60 * 1000,
  async write({ models }, projectId, flush, counts) {
    const writes = counts.map(([field, count]) => {
      const [type, day] = parseTypeDayField(field);
      return {
        updateOne: {
          filter: {
            _id: typeDayId(projectId, type, day),
            $or: [{ flush: { $lt: flush } }, { flush: { $exists: false } }],
          },
          update: { $inc: { count }, $set: { flush }, $setOnInsert: { projectId, type, day: new Date(day) } },
          upsert: true,
        },
      };
    });
    await ignoringDuplicateKeys(writes.length, () => models.EventTypeDay.bulkWrite(writes, { ordered: false }));
  },
};

/** One request's events counted per type, all of the day they were received. */
export function typeDayCounts(types: string[], day: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of types) {
    const field = typeDayField(type, day);
    counts.set(field, (counts.get(field) ?? 0) + 1);
  }
  return counts;
}

export interface TypeFigures {
  /** Events of the type over the catalog's days. */
  count: number;
  /** The last UTC day (YYYY-MM-DD) of the window with an event of the type. */
  lastSeenOn: string | null;
}

/** The project's type-day documents from `first` on, by the (projectId, day) index. */
export const catalogDaysQuery = (models: Models, projectId: string, first: Date) =>
  models.EventTypeDay.find({ projectId, day: { $gte: first } }, { _id: 1, type: 1, day: 1, count: 1, flush: 1 }).lean();

/**
 * Each type's events over the catalog's days: the day documents of the window (at most one per type and day, by the
 * (projectId, day) index) plus the counts still in Redis that they do not hold yet, read after them (withoutFlushBetween).
 */
export async function eventTypeFigures(
  deps: Pick<Deps, 'models' | 'redis' | 'config'>,
  projectId: string,
  now = new Date(),
): Promise<Map<string, TypeFigures>> {
  const first = startOfUtcDay(now).getTime() - (catalogDays - 1) * dayMs;
  const { stored, pending } = await withoutFlushBetween(deps, eventTypeCounts, projectId, async () => ({
    stored: await catalogDaysQuery(deps.models, projectId, new Date(first)),
    pending: await readAllPendingCounts(deps, eventTypeCounts, projectId),
  }));
  const flushOf = new Map(stored.map((entry) => [entry._id, entry.flush]));
  const figures = new Map<string, TypeFigures>();
  const add = (type: string, day: number, count: number) => {
    if (count === 0 || day < first) return;
    const seen = figures.get(type) ?? { count: 0, lastSeenOn: null };
    const key = dayKey(day);
    figures.set(type, {
      count: seen.count + count,
      lastSeenOn: seen.lastSeenOn === null || key > seen.lastSeenOn ? key : seen.lastSeenOn,
    });
  };
  for (const entry of stored) add(entry.type, entry.day.getTime(), entry.count);
  for (const field of pendingFields(pending)) {
    const [type, day] = parseTypeDayField(field);
    const written =
      pending.mark.flushId !== null && flushOf.get(typeDayId(projectId, type, day)) === pending.mark.flushId;
    add(type, day, notYetStored(pending, field, written));
  }
  return figures;
}

/** A catalog entry with its figures (none for a type without events in the window). */
export const withFigures = (entry: StoredEventType, figures: Map<string, TypeFigures>): EventTypeView => {
  const seen = figures.get(entry.type);
  return { ...entry, last30Days: seen?.count ?? 0, lastSeenOn: seen?.lastSeenOn ?? null };
};
