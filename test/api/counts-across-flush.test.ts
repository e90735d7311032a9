import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { flushingAfterFirstRead } from '../support/flush-between-reads.ts';
import { recordGatheredCounts } from '../../src/infra/gathered-counts.ts';
import { flushAllGatheredCounts } from '../../src/infra/flush-gathered-counts.ts';
import { dayMs, startOfUtcDay } from '../../src/infra/utc-day.ts';
import { eventTypeCounts, eventTypeFigures, typeDayCounts } from '../../src/events/event-type-counts.ts';
import { countEvents } from '../../src/events/count-events.ts';
import { countField, eventCounts } from '../../src/events/pending-counts.ts';
import { dailyCounts, dayCountField, dayKey } from '../../src/overview/daily-counts.ts';
import { projectOverview } from '../../src/overview/project-overview.ts';

const {
  ingress,
  projects: { catalog, counted, overview },
} = useIngress({ projects: { catalog: 'team', counted: 'team', overview: 'team' } });

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
});
