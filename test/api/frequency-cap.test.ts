import { describe, expect, it } from 'vitest';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { startTestWorkers } from '../support/workers.ts';
import { insertUserDevices, patchSettings, utcClock } from '../support/timing.ts';
import { eventually } from '../support/eventually.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';

const {
  harness,
  projects: { capped, ignoring, racing, journeying, quietJourneys },
} = useDeliveryHarness({
  projects: { capped: 'team', ignoring: 'team', racing: 'team', journeying: 'team', quietJourneys: 'team' },
  queues: ['send', 'deliver', 'event-ingest', 'journey-steps'],
});

const sendToUser = (project: typeof capped, userId: string, extra: Record<string, unknown> = {}) =>
  sendNotification(harness.ingress, project, { targetType: 'userId', targetIds: [userId], body: 'hi', ...extra });

const historyOf = async (project: typeof capped, deviceId: string) =>
  (
    await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}/notification-history`, {
      key: project.apiKey,
    })
  ).body.data;

describe('frequency cap (CONTRACTS §15)', () => {
  it('delivers two of three sends under a cap of 2 per 24 hours; the third counts capped and writes no history', async () => {
    await patchSettings(harness.ingress, capped, { frequencyCap: { max: 2, windowHours: 24 } });
    const [device] = await insertUserDevices(harness.ingress, capped, 'cap-a', 1, { userId: 'ann' });
    const stats = [];
    for (let index = 0; index < 3; index++)
      stats.push((await waitUntilCompleted(harness.ingress, capped, await sendToUser(capped, 'ann'))).stats);
    expect(stats.map(({ sent, capped: cappedCount }) => [sent, cappedCount])).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
    ]);
    expect(harness.sandbox.deliveries(device)).toHaveLength(2);
    expect(await historyOf(capped, device!)).toHaveLength(2);
    // The delivery metrics count it too, though no gateway call was made for it.
    const counts = redisKeys.deliveryCounts(harness.config.queuePrefix);
    expect(await harness.workers.context.redis.hget(counts, 'fcm|capped')).toBe('1');
  });

  it('sends with ignoreFrequencyCap regardless, and counts it toward the cap', async () => {
    await patchSettings(harness.ingress, ignoring, { frequencyCap: { max: 1, windowHours: 1 } });
    const [device] = await insertUserDevices(harness.ingress, ignoring, 'cap-b', 1, { userId: 'bob' });
    const first = await sendToUser(ignoring, 'bob', { ignoreFrequencyCap: true });
    expect((await waitUntilCompleted(harness.ingress, ignoring, first)).stats).toMatchObject({ sent: 1, capped: 0 });
    // The transactional one used the only push of the window.
    const second = await sendToUser(ignoring, 'bob');
    expect((await waitUntilCompleted(harness.ingress, ignoring, second)).stats).toMatchObject({ sent: 0, capped: 1 });
    const third = await sendToUser(ignoring, 'bob', { ignoreFrequencyCap: true });
    expect((await waitUntilCompleted(harness.ingress, ignoring, third)).stats).toMatchObject({ sent: 1, capped: 0 });
    expect(harness.sandbox.deliveries(device)).toHaveLength(2);
  });

  it('holds exactly across two deliver workers: two concurrent sends to 1,000 devices one below their cap deliver 1,000', async () => {
    const second = await startTestWorkers(harness.config, ['deliver']);
    try {
      await patchSettings(harness.ingress, racing, { frequencyCap: { max: 2, windowHours: 24 } });
      const devices = await insertUserDevices(harness.ingress, racing, 'race-', 1000, { tags: { group: 'all' } });
      const segment = await harness.ingress.request('POST', `/v1/projects/${racing.projectId}/segments`, {
        key: racing.apiKey,
        body: { name: 'all', match: 'all', conditions: [{ tag: 'group', op: 'eq', value: 'all' }] },
      });
      const toAll = { targetType: 'segment', targetIds: [segment.body.data.id], body: 'hi' };
      const warmUp = await sendNotification(harness.ingress, racing, toAll);
      expect((await waitUntilCompleted(harness.ingress, racing, warmUp, 60_000)).stats.sent).toBe(1000);

      const [one, two] = await Promise.all([
        sendNotification(harness.ingress, racing, toAll),
        sendNotification(harness.ingress, racing, toAll),
      ]);
      const [first, other] = await Promise.all([
        waitUntilCompleted(harness.ingress, racing, one, 60_000),
        waitUntilCompleted(harness.ingress, racing, two, 60_000),
      ]);
      expect(first.stats.sent + other.stats.sent).toBe(1000);
      expect(first.stats.capped + other.stats.capped).toBe(1000);
      const received = devices.map((device) => harness.sandbox.deliveries(device).length);
      expect(received.filter((count) => count !== 2)).toEqual([]);
    } finally {
      await second.close();
    }
  }, 120_000);

  /** A journey's pushes go out in notifications of their own, kept out of the notifications list (CONTRACTS §18). */
  const journeySends = async (project: CreatedProject) => {
    const stored = await harness.ingress.context.models.Notification.find(
      { projectId: project.projectId, journeyStepId: { $ne: null } },
      { _id: 1 },
    ).lean();
    return Promise.all(stored.map(({ _id }) => readNotification(harness.ingress, project, _id)));
  };

  it('applies to journeys, which take ignoreFrequencyCap too', async () => {
    await patchSettings(harness.ingress, journeying, { frequencyCap: { max: 1, windowHours: 24 } });
    const [device] = await insertUserDevices(harness.ingress, journeying, 'cap-j', 1, { userId: 'jo' });
    const first = await sendToUser(journeying, 'jo');
    await waitUntilCompleted(harness.ingress, journeying, first);
    const journey = async (name: string, extra: Record<string, unknown>) => {
      const created = await harness.ingress.request('POST', `/v1/projects/${journeying.projectId}/journeys`, {
        key: journeying.apiKey,
        body: { name, trigger: { event: name }, body: name, ...extra },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    };
    await journey('capped_event', {});
    await journey('urgent_event', { ignoreFrequencyCap: true });
    const track = await harness.ingress.request('POST', `/v1/projects/${journeying.projectId}/events`, {
      key: journeying.apiKey,
      body: {
        events: [
          { type: 'capped_event', subjectType: 'user', subjectId: 'jo' },
          { type: 'urgent_event', subjectType: 'user', subjectId: 'jo' },
        ],
      },
    });
    expect(track.status).toBe(200);
    const sends = await eventually(async () => {
      const all = await journeySends(journeying);
      expect(all.map((notification) => notification.status)).toEqual(['completed', 'completed']);
      return all;
    });
    const byBody = Object.fromEntries(sends.map((notification) => [notification.body, notification.stats]));
    expect(byBody.capped_event).toMatchObject({ sent: 0, capped: 1 });
    expect(byBody.urgent_event).toMatchObject({ sent: 1, capped: 0 });
    expect(harness.sandbox.deliveries(device)).toHaveLength(2);
    expect((await readNotification(harness.ingress, journeying, first)).stats.capped).toBe(0);
  });

  it('journeys honour quiet hours too, and take ignoreQuietHours', async () => {
    const now = Date.now();
    await patchSettings(harness.ingress, quietJourneys, {
      quietHours: { start: utcClock(now - 3_600_000), end: utcClock(now + 7_200_000) },
    });
    const [device] = await insertUserDevices(harness.ingress, quietJourneys, 'quiet-j', 1, { userId: 'qu' });
    for (const [name, extra] of [
      ['held_event', {}],
      ['urgent_event', { ignoreQuietHours: true }],
    ] as const) {
      const created = await harness.ingress.request('POST', `/v1/projects/${quietJourneys.projectId}/journeys`, {
        key: quietJourneys.apiKey,
        body: { name, trigger: { event: name }, body: name, ...extra },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.steps[0].ignoreQuietHours).toBe(name === 'urgent_event' ? true : undefined);
    }
    await harness.ingress.request('POST', `/v1/projects/${quietJourneys.projectId}/events`, {
      key: quietJourneys.apiKey,
      body: {
        events: [
          { type: 'held_event', subjectType: 'user', subjectId: 'qu' },
          { type: 'urgent_event', subjectType: 'user', subjectId: 'qu' },
        ],
      },
    });
    const statuses = async () =>
      Object.fromEntries(
        (await journeySends(quietJourneys)).map((notification) => [notification.body, notification.status]),
      );
    await eventually(async () =>
      expect(await statuses()).toEqual({ held_event: 'sending', urgent_event: 'completed' }),
    );
    const bodies = harness.sandbox.deliveries(device).map((delivery) => JSON.stringify(delivery.payload));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain('urgent_event');
  });
});
