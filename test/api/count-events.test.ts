import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { waitFor } from '../support/eventually.ts';
import { countEvents, type CountEventsQuery } from '../../src/events/count-events.ts';
import { ingestEvents } from '../../src/events/ingest-events.ts';
import { EventTypeCatalog } from '../../src/events/event-type-catalog.ts';
import { dayMs } from '../../src/infra/utc-day.ts';
import type { CountDeps } from '../../src/events/pending-counts.ts';
import { flushCounts } from '../../src/events/flush-counts.ts';
import { Job } from 'bullmq';
import { flushEventCountsJobName } from '../../src/queues/maintenance.ts';
import { maintenanceProcessor } from '../../src/maintenance/maintenance-processor.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';

const {
  config,
  ingress,
  workers,
  projects: { project },
} = useIngress({ workers: ['event-ingest'], projects: { project: 'team' } });
let firstBatchAt: number;
let secondBatchAt: number;
let deps: CountDeps;

const storedCount = async () => workers.context.models.Event.countDocuments({ projectId: project.projectId });
const receivedAtOf = async (type: string) =>
  (await workers.context.models.Event.findOne({ projectId: project.projectId, type }).lean())!.receivedAt.getTime();

async function report(events: object[]) {
  const before = await storedCount();
  const response = await ingress.request('POST', `/v1/projects/${project.projectId}/events`, {
    key: project.apiKey,
    body: { events },
  });
  expect(response.body.data).toEqual({ success: events.length, error: [] });
  await waitFor(storedCount, (count) => count === before + events.length);
}

beforeAll(async () => {
  for (const [deviceId, userId] of [
    ['count-phone', 'count-user'],
    ['count-tablet', 'count-user'],
    ['count-lonely', null],
  ] as const) {
    await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`, {
      key: project.clientKey,
      body: { platform: 'android', pushToken: `token-${deviceId}`, userId },
    });
  }
  await waitFor(storedCount, (count) => count === 3);
  await report([
    { type: 'purchase', subjectType: 'device', subjectId: 'count-phone', data: { amount: 50 } },
    {
      type: 'purchase',
      subjectType: 'user',
      subjectId: 'count-user',
      data: { amount: 150, at: '2024-03-01T10:00:00+09:00' },
    },
    { type: 'view', subjectType: 'device', subjectId: 'count-phone' },
    { type: 'purchase', subjectType: 'device', subjectId: 'count-lonely', data: { amount: 500 } },
    { type: 'first_batch', subjectType: 'user', subjectId: 'nobody' },
  ]);
  await report([
    {
      type: 'purchase',
      subjectType: 'device',
      subjectId: 'count-phone',
      data: { amount: 200, at: '2024-05-01T00:00:00Z' },
    },
    { type: 'second_batch', subjectType: 'user', subjectId: 'nobody' },
  ]);
  deps = workers.context;
  firstBatchAt = await receivedAtOf('first_batch');
  secondBatchAt = await receivedAtOf('second_batch');
});

const count = (query: Partial<CountEventsQuery> & Pick<CountEventsQuery, 'withinDays'>) =>
  countEvents(deps, { projectId: project.projectId, type: 'purchase', ...query } as CountEventsQuery);

describe('countEvents: how often an event happened for a device or user in the last N days', () => {
  it("counts a device's own events and its user's, and a user's events on all their devices", async () => {
    expect(secondBatchAt).toBeGreaterThan(firstBatchAt);
    expect(await count({ deviceId: 'count-phone', withinDays: 1 })).toBe(3);
    expect(await count({ deviceId: 'count-tablet', withinDays: 1 })).toBe(1);
    expect(await count({ userId: 'count-user', withinDays: 1 })).toBe(3);
    expect(await count({ deviceId: 'count-lonely', withinDays: 1 })).toBe(1);
    expect(await count({ deviceId: 'count-phone', withinDays: 1, type: 'view' })).toBe(1);
    expect(await count({ deviceId: 'count-phone', withinDays: 1, type: 'never' })).toBe(0);
  });

  it('counts only the events inside the period, whichever day its edges fall on', async () => {
    const later = (ms: number) => new Date(ms);
    // Ten days on, a 30-day window holds everything (read from the daily counters) and a 5-day window nothing.
    expect(await count({ deviceId: 'count-phone', withinDays: 30, now: later(secondBatchAt + 10 * dayMs) })).toBe(3);
    expect(await count({ userId: 'count-user', withinDays: 30, now: later(secondBatchAt + 10 * dayMs) })).toBe(3);
    expect(await count({ deviceId: 'count-phone', withinDays: 5, now: later(secondBatchAt + 10 * dayMs) })).toBe(0);
    // A window starting between the two batches holds only the second one.
    const between = (firstBatchAt + secondBatchAt) / 2;
    expect(await count({ deviceId: 'count-phone', withinDays: 3, now: later(between + 3 * dayMs) })).toBe(1);
    expect(await count({ deviceId: 'count-tablet', withinDays: 3, now: later(between + 3 * dayMs) })).toBe(0);
    expect(await count({ deviceId: 'count-phone', withinDays: 3, now: later(firstBatchAt - 1 + 3 * dayMs) })).toBe(3);
    // A window that ends before the events were received holds none of them.
    expect(await count({ deviceId: 'count-phone', withinDays: 3, now: later(firstBatchAt - 1) })).toBe(0);
  });

  it('counts only the events whose data matches the conditions, numbers and times alike', async () => {
    const tenDaysOn = new Date(secondBatchAt + 10 * dayMs);
    expect(
      await count({
        deviceId: 'count-phone',
        withinDays: 30,
        now: tenDaysOn,
        where: [{ field: 'amount', op: 'gte', value: 100 }],
      }),
    ).toBe(2);
    expect(
      await count({
        deviceId: 'count-phone',
        withinDays: 30,
        now: tenDaysOn,
        where: [{ field: 'amount', op: 'in', value: [50, 500] }],
      }),
    ).toBe(1);
    expect(
      await count({ deviceId: 'count-phone', withinDays: 30, now: tenDaysOn, where: [{ field: 'at', op: 'exists' }] }),
    ).toBe(2);
    const afterApril = [{ field: 'at', op: 'gte' as const, value: '2024-04-01T00:00:00Z' }];
    expect(await count({ deviceId: 'count-phone', withinDays: 30, now: tenDaysOn, where: afterApril })).toBe(1);
    const between = (firstBatchAt + secondBatchAt) / 2;
    const amountOver100 = [{ field: 'amount', op: 'gt' as const, value: 100 }];
    expect(
      await count({ deviceId: 'count-phone', withinDays: 3, now: new Date(between + 3 * dayMs), where: amountOver100 }),
    ).toBe(1);
    expect(await count({ deviceId: 'count-phone', withinDays: 5, now: tenDaysOn, where: amountOver100 })).toBe(0);
  });

  it('answers the same once the pending counts are flushed to MongoDB, and a repeated flush adds nothing', async () => {
    const queries = [
      { deviceId: 'count-phone', withinDays: 30, now: new Date(secondBatchAt + 10 * dayMs) },
      { userId: 'count-user', withinDays: 30, now: new Date(secondBatchAt + 10 * dayMs) },
      { deviceId: 'count-tablet', withinDays: 30, now: new Date(secondBatchAt + 10 * dayMs) },
      { deviceId: 'count-lonely', withinDays: 30, now: new Date(secondBatchAt + 10 * dayMs) },
    ];
    const before = await Promise.all(queries.map(count));
    expect(before).toEqual([3, 3, 1, 1]);
    const pendingKey = redisKeys.eventCounts(config.queuePrefix, project.projectId).pending;
    const pending = await deps.redis.hgetall(pendingKey);
    expect(Object.keys(pending).length).toBeGreaterThan(0);
    await flushCounts(deps, project.projectId);
    expect(await deps.redis.exists(pendingKey)).toBe(0);
    const counters = await deps.models.EventCounter.find({ projectId: project.projectId }).lean();
    expect(counters.reduce((sum, counter) => sum + counter.count, 0)).toBeGreaterThanOrEqual(5);
    expect(await Promise.all(queries.map(count))).toEqual(before);
    // A flush that died after writing the counters and before deleting its hash is finished without adding twice.
    const flushingKey = redisKeys.eventCounts(config.queuePrefix, project.projectId).flushing;
    const lastFlush = Math.max(...counters.map((counter) => counter.flush));
    await deps.redis.hset(flushingKey, { ...pending, '#flush': String(lastFlush) });
    await flushCounts(deps, project.projectId);
    expect(await deps.redis.exists(flushingKey)).toBe(0);
    expect(await Promise.all(queries.map(count))).toEqual(before);
  });

  it('does not count a retried ingest job twice', async () => {
    const ingestDeps = { ...deps, catalog: new EventTypeCatalog(deps.models), log: workers.context.log };
    const job = {
      projectId: project.projectId,
      receivedAt: new Date().toISOString(),
      events: [{ type: 'retried', subjectType: 'device' as const, subjectId: 'count-phone', data: {} }],
    };
    // Called as a retry of the job would, before any countsRecorded could be saved in it: the Redis marker holds.
    const unsaved = async () => undefined;
    await ingestEvents(ingestDeps, 'retried-job', job, unsaved);
    await ingestEvents(ingestDeps, 'retried-job', job, unsaved);
    expect(
      await count({ deviceId: 'count-phone', type: 'retried', withinDays: 30, now: new Date(Date.now() + 5 * dayMs) }),
    ).toBe(1);
    expect(await workers.context.models.Event.countDocuments({ projectId: project.projectId, type: 'retried' })).toBe(
      1,
    );
  });

  it('moves the counts of a project that stopped sending events into MongoDB on the maintenance schedule', async () => {
    const quiet = await ingress.createProject('team');
    const counted = async () =>
      (await deps.models.EventCounter.find({ projectId: quiet.projectId, type: 'last_words' }).lean()).reduce(
        (sum, counter) => sum + counter.count,
        0,
      );
    const pendingKey = redisKeys.eventCounts(config.queuePrefix, quiet.projectId).pending;
    const reportOne = async () => {
      const body = { events: [{ type: 'last_words', subjectType: 'user', subjectId: 'quiet-user' }] };
      expect(
        (await ingress.request('POST', `/v1/projects/${quiet.projectId}/events`, { key: quiet.apiKey, body })).status,
      ).toBe(200);
    };
    // The first event's counts are flushed at once; the second's, within a minute of that flush, wait in Redis for a
    // flush that no further event of this project triggers.
    await reportOne();
    await waitFor(counted, (total) => total === 1);
    await reportOne();
    await waitFor(
      () => deps.redis.exists(pendingKey),
      (exists) => exists === 1,
    );
    expect(await counted()).toBe(1);
    const schedulers = await workers.context.queues.maintenance.getJobSchedulers();
    expect(schedulers.find((scheduler) => scheduler.key === flushEventCountsJobName)?.every).toBe(60_000);
    const job = new Job(workers.context.queues.maintenance, flushEventCountsJobName, {});
    const result = await maintenanceProcessor(workers.context)(job);
    expect(result).toMatchObject({ projects: expect.any(Number) });
    expect(await counted()).toBe(2);
  });
});
