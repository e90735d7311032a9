import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { flushingAfterFirstRead } from '../support/flush-between-reads.ts';
import { countKeys, flushIdField, recordGatheredCounts } from '../../src/infra/gathered-counts.ts';
import { flushAllGatheredCounts } from '../../src/infra/flush-gathered-counts.ts';
import { dayMs, startOfUtcDay } from '../../src/infra/utc-day.ts';
import { eventTypeCounts, eventTypeFigures, typeDayCounts } from '../../src/events/event-type-counts.ts';
import { countEvents } from '../../src/events/count-events.ts';
import { countField, eventCounts } from '../../src/events/pending-counts.ts';
import { dailyCounts, dayCountField, dayKey } from '../../src/overview/daily-counts.ts';
import { projectOverview } from '../../src/overview/project-overview.ts';

const {
  ingress,
  projects: { catalog, counted, overview, handedOver, underWay },
} = useIngress({
  projects: { catalog: 'team', counted: 'team', overview: 'team', handedOver: 'team', underWay: 'team' },
});

const today = startOfUtcDay(new Date()).getTime();

// Each reader reads the stored documents, then Redis. A flush that writes the counts and removes them from Redis in
// between must not make them vanish from the answer.
describe('counts read while a flush moves them from Redis into MongoDB', () => {
  it("the event catalog counts a type's events once", async () => {
    const deps = ingress.context;
    const counts = typeDayCounts(['across_flush', 'across_flush'], today);
    await recordGatheredCounts(deps, eventTypeCounts, catalog.projectId, counts);
    const flush = () => flushAllGatheredCounts(deps, eventTypeCounts, catalog.projectId);
    const models = flushingAfterFirstRead(deps.models, 'EventTypeDay', flush);
    const figures = await eventTypeFigures({ ...deps, models }, catalog.projectId);
    expect(figures.get('across_flush')).toEqual({ count: 2, lastSeenOn: dayKey(new Date(today)) });
    expect(await deps.models.EventTypeDay.countDocuments({ projectId: catalog.projectId, count: 2 })).toBe(1);
  });

  it("a user's events over whole days are counted once", async () => {
    const deps = ingress.context;
    const field = countField({
      subjectType: 'user',
      subjectId: 'across-user',
      type: 'purchase',
      day: today - 2 * dayMs,
    });
    await recordGatheredCounts(deps, eventCounts, counted.projectId, new Map([[field, 3]]));
    const flush = () => flushAllGatheredCounts(deps, eventCounts, counted.projectId);
    const models = flushingAfterFirstRead(deps.models, 'EventCounter', flush);
    const query = { projectId: counted.projectId, userId: 'across-user', type: 'purchase', withinDays: 30 };
    expect(await countEvents({ ...deps, models }, query)).toBe(3);
    expect(await deps.models.EventCounter.countDocuments({ projectId: counted.projectId, count: 3 })).toBe(1);
  });

  it("the overview shows the day's sends once", async () => {
    const deps = ingress.context;
    const field = dayCountField(dayKey(new Date(today)), 'sent');
    await recordGatheredCounts(deps, dailyCounts, overview.projectId, new Map([[field, 4]]));
    const flush = () => flushAllGatheredCounts(deps, dailyCounts, overview.projectId);
    const models = flushingAfterFirstRead(deps.models, 'DailyCount', flush);
    const { days } = await projectOverview({ ...deps, models }, overview.projectId, 7);
    expect(days.at(-1)).toMatchObject({ day: dayKey(new Date(today)), sent: 4 });
    expect(await deps.models.DailyCount.countDocuments({ projectId: overview.projectId, sent: 4 })).toBe(1);
  });

  it('a flush that ends while the next one begins between the reads is not taken for the same flush', async () => {
    const deps = ingress.context;
    const keys = countKeys(deps, eventTypeCounts, handedOver.projectId);
    const [numbered] = [...typeDayCounts(['numbered'], today)];
    const number = await deps.redis.incr(keys.flushSequence);
    await deps.redis.hset(keys.flushing, { [numbered![0]]: 3, [flushIdField]: number });
    await recordGatheredCounts(deps, eventTypeCounts, handedOver.projectId, typeDayCounts(['next'], today));
    // Between the reads: the numbered flush writes its counts and deletes its hash, and the next one moves the
    // pending counts aside, not numbered yet.
    const models = flushingAfterFirstRead(deps.models, 'EventTypeDay', async () => {
      await eventTypeCounts.write(deps, handedOver.projectId, number, [[numbered![0], 3]]);
      await deps.redis.del(keys.flushing);
      await deps.redis.rename(keys.pending, keys.flushing);
    });
    const figures = await eventTypeFigures({ ...deps, models }, handedOver.projectId);
    expect(figures.get('numbered')?.count).toBe(3);
    expect(figures.get('next')?.count).toBe(1);
  });

  it('the overview counts the days a flush under way writes between the reads once', async () => {
    const deps = ingress.context;
    const keys = countKeys(deps, dailyCounts, underWay.projectId);
    const yesterday = dayKey(new Date(today - dayMs));
    const counts: Array<[string, number]> = [
      [dayCountField(yesterday, 'subscribed'), 5],
      [dayCountField(dayKey(new Date(today)), 'sent'), 4],
    ];
    const number = await deps.redis.incr(keys.flushSequence);
    await deps.redis.hset(keys.flushing, { ...Object.fromEntries(counts), [flushIdField]: number });
    // The flush, under way throughout, writes both days once the window's documents are read.
    const models = flushingAfterFirstRead(deps.models, 'DailyCount', () =>
      dailyCounts.write(deps, underWay.projectId, number, counts),
    );
    const { days } = await projectOverview({ ...deps, models }, underWay.projectId, 1);
    expect(days).toEqual([{ day: dayKey(new Date(today)), subscribed: 5, sent: 4, clicked: 0, conversions: 0 }]);
  });
});
