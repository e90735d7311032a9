import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { dayMs, startOfUtcDay } from '../../src/infra/utc-day.ts';
import { addToDay, dailyCountKey, dailyCounts } from '../../src/overview/daily-counts.ts';
import { flushAllGatheredCounts } from '../../src/infra/flush-gathered-counts.ts';
import { countKeys } from '../../src/infra/gathered-counts.ts';

const {
  harness,
  projects: { project, older, crowded, counted },
} = useDeliveryHarness({
  queues: ['send', 'deliver', 'event-ingest'],
  projects: { project: 'team', older: 'team', crowded: 'business', counted: 'business' },
});

const today = startOfUtcDay(new Date());
const daysAgo = (days: number, hours = 12) => new Date(today.getTime() - days * dayMs + hours * 3_600_000);
const day = (days: number) => daysAgo(days).toISOString().slice(0, 10);

interface OverviewDay {
  day: string;
  subscribed: number;
  sent: number;
  clicked: number;
}

async function overview(of: CreatedProject, query = ''): Promise<OverviewDay[]> {
  const response = await harness.ingress.request('GET', `/v1/projects/${of.projectId}/overview${query}`, {
    key: of.apiKey,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.days;
}

const on = (days: OverviewDay[], ago: number) => days.find((entry) => entry.day === day(ago))!;

describe('GET /overview', () => {
  it("answers each of the last 30 days' pushes sent, devices that clicked and devices subscribed, as counted where they happened", async () => {
    const { projectId } = project;
    const server = (method: string, path: string) =>
      harness.ingress.request(method, `/v1/projects/${projectId}${path}`, { key: project.apiKey });
    const click = (deviceId: string, notificationId: string) =>
      harness.ingress.request('POST', `/v1/sdk/projects/${projectId}/devices/${deviceId}/events`, {
        key: project.clientKey,
        body: { type: '@clicked', data: { notificationId } },
      });
    // Four devices subscribe; the gateway unregisters one at the send, and one is erased after it.
    await registerDevices(harness.ingress, project, [
      { id: 'ov-a', platform: 'android', token: 'ov-a', userId: 'olga' },
      { id: 'ov-b', platform: 'ios', token: 'ov-b', userId: 'olga' },
      { id: 'ov-c', platform: 'android', token: 'unregistered-ov-c', userId: 'olga' },
      { id: 'ov-d', platform: 'android', token: 'ov-d', userId: 'olga' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['olga'],
      body: 'Hi',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    // A device clicking twice is one device that clicked; one the push was not sent to is not counted.
    for (const deviceId of ['ov-a', 'ov-a', 'ov-b', 'ov-c']) expect((await click(deviceId, id)).status).toBe(200);
    expect((await server('DELETE', '/devices/ov-d')).status).toBe(200);
    // Three days ago, as the deliver step and the click path count them.
    await addToDay(harness.ingress.context, projectId, { sent: 5, clicked: 1 }, daysAgo(3));

    await eventually(async () => {
      const days = await overview(project);
      expect(days).toHaveLength(30);
      expect(days[0]!.day).toBe(day(29));
      expect(days.at(-1)).toEqual({ day: day(0), subscribed: 2, sent: 3, clicked: 2, conversions: 0 });
      expect(on(days, 3)).toEqual({ day: day(3), subscribed: 0, sent: 5, clicked: 1, conversions: 0 });
      expect(days.reduce((sum, entry) => sum + entry.sent, 0)).toBe(8);
    });
    expect((await server('GET', '/overview?days=0')).status).toBe(400);
  });

  it('answers the devices of a project created before daily counts as subscribed on every day before today', async () => {
    const { projectId } = older;
    const device = (id: string, isSubscribed: boolean) => ({
      _id: deviceKey(projectId, id),
      projectId,
      deviceId: id,
      platform: 'android',
      pushToken: `t-${id}`,
      isSubscribed,
      unsubscribedAt: isSubscribed ? null : daysAgo(50),
      createdAt: daysAgo(60),
      updatedAt: daysAgo(60),
    });
    // Written before the daily counts existed, whose project has no baseline yet: three subscribed, one not.
    const { models } = harness.ingress.context;
    await models.DailyCount.deleteMany({ projectId });
    await models.Device.insertMany(
      [device('old-1', true), device('old-2', true), device('old-3', true), device('old-4', false)],
      { lean: true },
    );
    await registerDevices(harness.ingress, older, [{ id: 'new-1', platform: 'android', token: 'new-1' }]);

    const days = await overview(older, '?days=7');
    expect(days.map((entry) => entry.subscribed)).toEqual([3, 3, 3, 3, 3, 3, 4]);
    // The baseline is read once: a device subscribing later adds to today's change only.
    await registerDevices(harness.ingress, older, [{ id: 'new-2', platform: 'android', token: 'new-2' }]);
    expect((await overview(older, '?days=7')).map((entry) => entry.subscribed)).toEqual([3, 3, 3, 3, 3, 3, 5]);
  });
});

const todayOf = async (of: CreatedProject) => (await overview(of, '?days=7')).find((entry) => entry.day === day(0));

/** The day's document: each flush that writes it stamps its number there, numbered from 1 per project. */
const dayDocument = (of: CreatedProject) =>
  harness.ingress.context.models.DailyCount.findById(dailyCountKey(of.projectId, startOfUtcDay(new Date()))).lean();

const flushAll = (of: CreatedProject) => flushAllGatheredCounts(harness.ingress.context, dailyCounts, of.projectId);

describe("the overview's daily counts, gathered in Redis", () => {
  // A thousand real registrations over HTTP: 9-19 s alone on two cores, several times that beside other work.
  it("writes the day's document a handful of times for 1,000 concurrent registrations to one project", {
    timeout: 180_000,
  }, async () => {
    const register = (index: number) =>
      harness.ingress.request('PUT', `/v1/sdk/projects/${crowded.projectId}/devices/crowd-${index}`, {
        key: crowded.clientKey,
        body: { platform: 'android', pushToken: `crowd-token-${index}` },
      });
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, index) => register(index)));
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    // Exact while most of the counts still wait in Redis, and after they are flushed.
    expect(await todayOf(crowded)).toMatchObject({ subscribed: 1000 });
    await flushAll(crowded);
    expect(await todayOf(crowded)).toMatchObject({ subscribed: 1000 });
    const document = await dayDocument(crowded);
    expect(document).toMatchObject({ subscribed: 1000 });
    expect(document!.flush).toBeLessThanOrEqual(3);
  });

  it('answers the same figures before and after a flush, and a flush written again adds nothing', async () => {
    const { projectId } = counted;
    const devices = ['a', 'b', 'c', 'd', 'e'].map((id) => ({
      id: `counted-${id}`,
      platform: 'android' as const,
      token: id === 'e' ? 'unregistered-counted-e' : `counted-${id}`,
      userId: 'carla',
    }));
    await registerDevices(harness.ingress, counted, devices);
    const id = await sendNotification(harness.ingress, counted, {
      targetType: 'userId',
      targetIds: ['carla'],
      body: 'Hi',
    });
    await waitUntilCompleted(harness.ingress, counted, id);
    for (const deviceId of ['counted-a', 'counted-a', 'counted-b', 'counted-c']) {
      const click = await harness.ingress.request('POST', `/v1/sdk/projects/${projectId}/devices/${deviceId}/events`, {
        key: counted.clientKey,
        body: { type: '@clicked', data: { notificationId: id } },
      });
      expect(click.status).toBe(200);
    }
    // Five registered, one unsubscribed by the gateway at the send; four sent; three devices clicked.
    const known = { day: day(0), subscribed: 4, sent: 4, clicked: 3, conversions: 0 };
    const { redis } = harness.ingress.context;
    const names = countKeys(harness.ingress.context, dailyCounts, projectId);
    // The clicks are counted by the event-ingest worker.
    await eventually(async () => expect((await overview(counted, '?days=7')).at(-1)).toEqual(known));
    const waiting = await redis.hgetall(names.pending);
    expect(Object.keys(waiting).length).toBeGreaterThan(0);
    const before = await overview(counted, '?days=7');

    await flushAll(counted);
    expect(await redis.exists(names.pending)).toBe(0);
    expect(await overview(counted, '?days=7')).toEqual(before);
    // A flush that died after writing the day's document and before deleting its counts: read as written, and its
    // next run adds nothing again.
    await redis.hset(names.flushing, { ...waiting, '#flush': String((await dayDocument(counted))!.flush) });
    expect(await overview(counted, '?days=7')).toEqual(before);
    await flushAll(counted);
    expect(await redis.exists(names.flushing)).toBe(0);
    expect(await overview(counted, '?days=7')).toEqual(before);
    expect(await dayDocument(counted)).toMatchObject({ subscribed: 4, sent: 4, clicked: 3 });
  });
});
