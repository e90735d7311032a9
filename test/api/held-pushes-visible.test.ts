import { describe, expect, it, vi } from 'vitest';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { insertUserDevices, patchSettings, utcClock } from '../support/timing.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';

/** CONTRACTS §15 and §17 as amended: held pushes are visible, and a settings change applies to them at once. */
const {
  harness,
  projects: { quiet, shortened, local, fallBack },
} = useDeliveryHarness({ projects: { quiet: 'team', shortened: 'team', local: 'team', fallBack: 'team' } });

const minuteMs = 60_000;
const minuteOf = (at: number) => Math.floor(at / minuteMs) * minuteMs;
const iso = (at: number) => new Date(at).toISOString();

const waitingLog = async (project: CreatedProject, id: string) => {
  const response = await harness.ingress.request(
    'GET',
    `/v1/projects/${project.projectId}/notifications/${id}/deliveries?outcome=waiting`,
    { key: project.apiKey },
  );
  expect(response.status).toBe(200);
  return response.body.data;
};

/** A push to the project's one device, sent now, that the quiet hours ending at `end` hold. */
async function heldUntil(project: CreatedProject, prefix: string, end: number) {
  const now = Date.now();
  await patchSettings(harness.ingress, project, {
    quietHours: { start: utcClock(now - 60 * minuteMs), end: utcClock(end) },
  });
  await insertUserDevices(harness.ingress, project, prefix, 1);
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: [`${prefix}0`],
    body: 'hi',
  });
  const view = await eventually(async () => {
    const read = await readNotification(harness.ingress, project, id);
    expect(read.stats.waiting).toBe(1);
    return read;
  });
  return { id, view };
}

describe('held pushes', () => {
  it('show how many wait and until when, in the notification and the delivery log, and go at once when quiet hours are turned off', async () => {
    const end = minuteOf(Date.now()) + 120 * minuteMs;
    const { id, view } = await heldUntil(quiet, 'quiet-', end);
    expect(view).toMatchObject({ status: 'sending', stats: { sent: 0, waiting: 1 }, waitingUntil: iso(end) });
    expect(await waitingLog(quiet, id)).toEqual([
      { deviceId: 'quiet-0', platform: 'android', outcome: 'waiting', reason: 'quiet_hours', at: iso(end) },
    ]);

    const changed = Date.now();
    await patchSettings(harness.ingress, quiet, { quietHours: null });
    const completed = await waitUntilCompleted(harness.ingress, quiet, id, 15_000);
    expect(completed.stats).toMatchObject({ sent: 1 });
    expect(completed.stats.waiting).toBeUndefined();
    expect(Date.parse(harness.sandbox.deliveries('quiet-0')[0]!.receivedAt) - changed).toBeLessThan(10_000);
    expect(await waitingLog(quiet, id)).toEqual([]);
  });

  it('wait only until the new end when quiet hours are shortened', async () => {
    const end = minuteOf(Date.now()) + 120 * minuteMs;
    const { id } = await heldUntil(shortened, 'short-', end);
    const newEnd = minuteOf(Date.now()) + 30 * minuteMs;
    await patchSettings(harness.ingress, shortened, {
      quietHours: { start: utcClock(Date.now() - 60 * minuteMs), end: utcClock(newEnd) },
    });
    await eventually(async () => {
      const read = await readNotification(harness.ingress, shortened, id);
      expect(read).toMatchObject({ stats: { waiting: 1 }, waitingUntil: iso(newEnd) });
    }, 15_000);
    expect(await waitingLog(shortened, id)).toEqual([
      { deviceId: 'short-0', platform: 'android', outcome: 'waiting', reason: 'quiet_hours', at: iso(newEnd) },
    ]);
  });

  it("show a local-time send's waiting devices with their reason and due time", async () => {
    await insertUserDevices(harness.ingress, local, 'local-', 2, { userId: 'kim' });
    const due = minuteOf(Date.now()) + 90 * minuteMs;
    const id = await sendNotification(harness.ingress, local, {
      targetType: 'userId',
      targetIds: ['kim'],
      body: 'later',
      localTime: utcClock(due),
    });
    await eventually(async () => {
      expect(await readNotification(harness.ingress, local, id)).toMatchObject({
        status: 'sending',
        stats: { waiting: 2 },
        waitingUntil: iso(due),
      });
    });
    expect(await waitingLog(local, id)).toEqual(
      ['local-0', 'local-1'].map((deviceId) => ({
        deviceId,
        platform: 'android',
        outcome: 'waiting',
        reason: 'local_time',
        at: iso(due),
      })),
    );
  });

  it('on the day clocks fall back, wait for the first occurrence of a repeated time, and the new offset after it', async () => {
    await insertUserDevices(harness.ingress, fallBack, 'ny-', 1, { userId: 'ny', timezone: 'America/New_York' });
    // New York falls back at 02:00 EDT on 1 November 2026: 01:00 to 01:59 comes twice, first at -04:00, then -05:00.
    expect(await waitingUntilOnFallBackDay('2026-11-01T04:00:00Z', '01:30')).toBe('2026-11-01T05:30:00.000Z');
    expect(await waitingUntilOnFallBackDay('2026-11-01T04:00:00Z', '03:00')).toBe('2026-11-01T08:00:00.000Z');
    // Once the first 01:30 has passed, the next day's 01:30 (EST), not the hour's second pass.
    expect(await waitingUntilOnFallBackDay('2026-11-01T05:40:00Z', '01:30')).toBe('2026-11-02T06:30:00.000Z');
  });
});

/**
 * When a local-time send made at `now` holds the New York device, as its view and delivery log say; then canceled.
 * The ingress and the workers of this harness run in this process, so a faked Date is their clock.
 */
async function waitingUntilOnFallBackDay(now: string, localTime: string): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
  let id = '';
  try {
    id = await sendNotification(harness.ingress, fallBack, {
      targetType: 'userId',
      targetIds: ['ny'],
      body: 'good night',
      localTime,
    });
    const { waitingUntil } = await eventually(async () => {
      const notification = await readNotification(harness.ingress, fallBack, id);
      expect(notification.stats.waiting).toBe(1);
      return notification;
    });
    expect(await waitingLog(fallBack, id)).toMatchObject([
      { deviceId: 'ny-0', reason: 'local_time', at: waitingUntil },
    ]);
    return waitingUntil;
  } finally {
    vi.useRealTimers();
    if (id) {
      const path = `/v1/projects/${fallBack.projectId}/notifications/${id}/cancel`;
      expect((await harness.ingress.request('POST', path, { key: fallBack.apiKey })).status).toBe(200);
    }
  }
}
