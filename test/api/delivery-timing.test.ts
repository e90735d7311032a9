import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { enqueueSend } from '../../src/queues/send.ts';
import { insertUserDevices, patchSettings, utcClock } from '../support/timing.ts';
import { zonePartSize } from '../../src/fan-out/local-time-fan-out.ts';

const {
  harness,
  projects: { quiet, ending, local, throttled, checked, expiring, resumed, zoned },
} = useDeliveryHarness({
  projects: {
    quiet: 'team',
    ending: 'team',
    local: 'team',
    throttled: 'team',
    checked: 'team',
    expiring: 'team',
    resumed: 'team',
    zoned: 'team',
  },
});

const minuteMs = 60_000;
const toDevice = (deviceId: string, extra: Record<string, unknown> = {}) => ({
  targetType: 'device',
  targetIds: [deviceId],
  body: 'hi',
  ...extra,
});
const heldParts = async (notificationId: string) =>
  (await harness.workers.context.queues.deliver.getDelayed()).filter(
    (job) => job.data.notificationId === notificationId && job.data.heldUntil !== undefined,
  );

/**
 * The ingress, the workers and the sandbox of this harness run in this process, so a faked Date is their clock: it
 * moves on with real time from a few seconds before a minute turns, so that a test about a minute's turn waits seconds.
 * A test whose set-up outlasts those seconds sees the clock past the turn and waits for the next minute: slower, never
 * wrong.
 */
function nearTheMinute(leadMs = 5_000) {
  const turn = Math.ceil((Date.now() + leadMs + 1_000) / minuteMs) * minuteMs;
  vi.useFakeTimers({ toFake: ['Date'], now: turn - leadMs, shouldAdvanceTime: true });
}

/** The clock of this instant in a zone, as HH:MM. */
const clockIn = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

describe('quiet hours and local-time sends (CONTRACTS §15)', () => {
  it('hold a push inside them while others go, and ignoreQuietHours sends at once', async () => {
    const now = Date.now();
    await patchSettings(harness.ingress, quiet, {
      quietHours: { start: utcClock(now - 60 * minuteMs), end: utcClock(now + 120 * minuteMs) },
    });
    await insertUserDevices(harness.ingress, quiet, 'quiet-', 2);
    const held = await sendNotification(harness.ingress, quiet, toDevice('quiet-0'));
    await eventually(async () => expect(await heldParts(held)).toHaveLength(1));
    const urgent = await sendNotification(harness.ingress, quiet, toDevice('quiet-1', { ignoreQuietHours: true }));
    await waitUntilCompleted(harness.ingress, quiet, urgent);
    expect(harness.sandbox.deliveries('quiet-1')).toHaveLength(1);
    expect(harness.sandbox.deliveries('quiet-0')).toEqual([]);
    expect(await readNotification(harness.ingress, quiet, held)).toMatchObject({
      status: 'sending',
      stats: { targeted: 1, sent: 0 },
    });
    const [part] = await heldParts(held);
    // Released when they end, in the device's zone (here the project default, UTC), to the minute.
    expect(part!.timestamp + part!.delay).toBeGreaterThan(now + 119 * minuteMs);
  });

  // The two tests about the clock wait for a minute to turn, together, seconds after they begin.
  describe('when the minute turns', () => {
    beforeAll(() => nearTheMinute());
    afterAll(() => vi.useRealTimers());

    it.concurrent('deliver a held push once when they end', async () => {
      const now = Date.now();
      const end = Math.floor(now / minuteMs) * minuteMs + minuteMs;
      await patchSettings(harness.ingress, ending, {
        quietHours: { start: utcClock(now - 60 * minuteMs), end: utcClock(end) },
      });
      await insertUserDevices(harness.ingress, ending, 'ending-', 1);
      const id = await sendNotification(harness.ingress, ending, toDevice('ending-0'));
      const completed = await waitUntilCompleted(harness.ingress, ending, id, 2 * minuteMs);
      expect(completed.stats).toMatchObject({ targeted: 1, sent: 1, failed: 0 });
      const deliveries = harness.sandbox.deliveries('ending-0');
      expect(deliveries).toHaveLength(1);
      expect(Date.parse(deliveries[0]!.receivedAt)).toBeGreaterThanOrEqual(end);
    }, 150_000);

    it.concurrent("send each device at its own zone's time, keep the notification sending, and stop the waiting parts on cancel", async () => {
      await patchSettings(harness.ingress, local, { defaultTimezone: 'Asia/Seoul' });
      for (const [prefix, timezone] of [
        ['seoul-', 'Asia/Seoul'],
        ['berlin-', 'Europe/Berlin'],
        ['newyork-', 'America/New_York'],
        ['nozone-', null],
      ] as const)
        await insertUserDevices(harness.ingress, local, prefix, 1, { userId: 'lee', timezone });
      const soon = Math.floor(Date.now() / minuteMs) * minuteMs + minuteMs;
      const id = await sendNotification(harness.ingress, local, {
        targetType: 'userId',
        targetIds: ['lee'],
        body: 'morning',
        localTime: clockIn(soon, 'Asia/Seoul'),
      });
      await eventually(() => expect(harness.sandbox.deliveries('seoul-0')).toHaveLength(1), 2 * minuteMs);
      await eventually(() => expect(harness.sandbox.deliveries('nozone-0')).toHaveLength(1));
      for (const token of ['seoul-0', 'nozone-0'])
        expect(Date.parse(harness.sandbox.deliveries(token)[0]!.receivedAt)).toBeGreaterThanOrEqual(soon);
      expect(Date.parse(harness.sandbox.deliveries('seoul-0')[0]!.receivedAt)).toBeLessThan(soon + 10_000);
      // The sandbox has a push before its batch writes its counts.
      await eventually(async () =>
        expect(await readNotification(harness.ingress, local, id)).toMatchObject({
          status: 'sending',
          stats: { targeted: 4, sent: 2 },
        }),
      );
      const waiting = await heldParts(id);
      expect(
        waiting.flatMap((job) => job.data.devices.map((device: { deviceId: string }) => device.deviceId)).sort(),
      ).toEqual(['berlin-0', 'newyork-0']);
      // BullMQ removes no job while one of its children is locked: the cancel comes once the sent part's run has ended.
      await eventually(async () =>
        expect(
          (await harness.workers.context.queues.deliver.getActive()).map((job) => job.data.notificationId),
        ).not.toContain(id),
      );

      const canceled = await harness.ingress.request(
        'POST',
        `/v1/projects/${local.projectId}/notifications/${id}/cancel`,
        {
          key: local.apiKey,
        },
      );
      expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
      expect(canceled.body.data).toMatchObject({ status: 'canceled', stats: { sent: 2 } });
      // The parts are removed with the send job; one a worker held meanwhile finds the send canceled when it runs.
      for (const job of waiting) expect(['unknown', 'completed']).toContain(await job.getState());
      expect(harness.sandbox.deliveries('berlin-0')).toEqual([]);
      expect(harness.sandbox.deliveries('newyork-0')).toEqual([]);
      expect(await readNotification(harness.ingress, local, id)).toMatchObject({
        status: 'canceled',
        stats: { sent: 2 },
      });
    }, 150_000);
  });
});

describe('a local-time send to thousands of devices over several zones', () => {
  it('waits in one part per zone and few thousand devices, not one per zone and batch, and shows its zones', async () => {
    const zones = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'America/Los_Angeles'];
    const count = 3000;
    await insertUserDevices(harness.ingress, zoned, 'zoned-', count, { userId: 'zed', timezones: zones });
    // Two and a half hours ahead in UTC: no zone above is at that clock within the test.
    const id = await sendNotification(harness.ingress, zoned, {
      targetType: 'userId',
      targetIds: ['zed'],
      body: 'good morning',
      localTime: clockIn(Date.now() + 150 * minuteMs, 'UTC'),
    });
    const waiting = await eventually(async () => {
      const parts = await heldParts(id);
      expect(parts.reduce((sum, part) => sum + part.data.devices.length, 0)).toBe(count);
      return parts;
    });
    expect(waiting.length).toBeLessThanOrEqual(zones.length + Math.ceil(count / zonePartSize));
    for (const part of waiting)
      expect(new Set(part.data.devices.map((device: { timezone: string }) => device.timezone)).size).toBe(1);
    expect(harness.sandbox.deliveries('zoned-0')).toEqual([]);
    expect(await readNotification(harness.ingress, zoned, id)).toMatchObject({
      status: 'sending',
      stats: { targeted: count, sent: 0 },
      zones: { total: zones.length, sent: 0 },
    });
  });
});

describe('a batch stopped while splitting off held devices', () => {
  it('is run again from its saved plan: the same part, queued once, and the device neither sent nor counted', async () => {
    await insertUserDevices(harness.ingress, resumed, 'resumed-', 2);
    const id = await sendNotification(harness.ingress, resumed, toDevice('resumed-1'));
    await waitUntilCompleted(harness.ingress, resumed, id);
    const releaseAt = Math.floor(Date.now() / minuteMs) * minuteMs + 60 * minuteMs;
    // What a run leaves when it stops after saving its plan, before its parts are queued (or before it saves again).
    const data = {
      notificationId: id,
      projectId: resumed.projectId,
      gateway: 'fcm' as const,
      batch: 7,
      devices: [{ deviceId: 'resumed-0', platform: 'android' as const, pushToken: 'resumed-0' }],
      holding: [{ releaseAt, deviceIds: ['resumed-0'] }],
    };
    const { deliver } = harness.workers.context.queues;
    for (let run = 0; run < 2; run++) {
      const job = await deliver.add('deliver:resumed', data, { jobId: `${id}-7` });
      await eventually(async () => expect(await job.getState()).toBe('completed'));
      await job.remove();
    }
    const parts = await heldParts(id);
    expect(
      parts.map((part) => [part.id, part.data.devices.map((device: { deviceId: string }) => device.deviceId)]),
    ).toEqual([[`${id}-7-h${releaseAt}`, ['resumed-0']]]);
    expect(parts[0]!.data.resumedFanOut).toBe(true);
    expect(harness.sandbox.deliveries('resumed-0')).toEqual([]);
    expect((await readNotification(harness.ingress, resumed, id)).stats).toMatchObject({ sent: 1, failed: 0 });
  });
});

describe('a push held past its ttl (CONTRACTS §14)', () => {
  it('is not sent and counts failed', async () => {
    await insertUserDevices(harness.ingress, expiring, 'expiring-', 1);
    // Accepted 29 days ago and held since: the default ttl (28 days) has run out.
    const notification = {
      _id: `expired-${Date.now()}`,
      projectId: expiring.projectId,
      targetType: 'device' as const,
      targetIds: ['expiring-0'],
      body: 'too late',
      createdAt: new Date(Date.now() - 29 * 24 * 60 * minuteMs),
    };
    await harness.ingress.context.models.Notification.collection.insertOne({
      ...notification,
      status: 'queued',
      data: {},
      sendAt: null,
    } as never);
    await enqueueSend(harness.ingress.context, notification);
    const completed = await waitUntilCompleted(harness.ingress, expiring, notification._id);
    expect(completed.stats).toMatchObject({ targeted: 1, sent: 0, failed: 1 });
    expect(harness.sandbox.deliveries('expiring-0')).toEqual([]);
  });
});

describe('throttlePerMinute (CONTRACTS §15)', () => {
  it('spreads 100 devices at 600 a minute over at least 9 seconds, each device once', async () => {
    const devices = await insertUserDevices(harness.ingress, throttled, 'thr-', 100, { userId: 'tia' });
    const id = await sendNotification(harness.ingress, throttled, {
      targetType: 'userId',
      targetIds: ['tia'],
      body: 'paced',
      throttlePerMinute: 600,
    });
    expect((await waitUntilCompleted(harness.ingress, throttled, id, 40_000)).stats.sent).toBe(100);
    const received = devices.map((device) => harness.sandbox.deliveries(device));
    expect(received.filter((deliveries) => deliveries.length !== 1)).toEqual([]);
    const times = received.map((deliveries) => Date.parse(deliveries[0]!.receivedAt)).sort((a, b) => a - b);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(9000);
  }, 60_000);
});

describe('timing fields of a send', () => {
  it('refuse a bad localTime and throttlePerMinute with a 400 naming each', async () => {
    const answer = await harness.ingress.request('POST', `/v1/projects/${checked.projectId}/notifications`, {
      key: checked.apiKey,
      body: {
        targetType: 'userId',
        targetIds: ['x'],
        body: 'b',
        localTime: '25:00',
        throttlePerMinute: 0,
        ignoreQuietHours: 'yes',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      '/ignoreQuietHours',
      '/localTime',
      '/throttlePerMinute',
    ]);
  });
});
