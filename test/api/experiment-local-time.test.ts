import { describe, expect, it } from 'vitest';
import { readNotification, sendNotification, useDeliveryHarness } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { pickWinner } from '../support/experiments.ts';
import { insertUserDevices, utcClock } from '../support/timing.ts';
import { testedVariant, winnerBatchOffset } from '../../src/experiments/experiment-groups.ts';
import { nextLocalTime } from '../../src/targets/local-clock.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send', 'deliver'], projects: { project: 'team' } });

const variants = [
  { name: 'a', body: 'b-a' },
  { name: 'b', body: 'b-b' },
];
const zoneOf = (index: number) => (index % 2 === 0 ? 'UTC' : 'Asia/Tokyo');
const bodiesOf = (device: string) =>
  harness.sandbox.deliveries(device).map((delivery) => (delivery.payload as any).notification.body as string);

/** The send's parts waiting for a local time: each device with its variant, batch and the instant it waits for. */
async function heldDevices(id: string) {
  const parts = (await harness.workers.context.queues.deliver.getDelayed()).filter(
    (job) => job.data.notificationId === id,
  );
  return parts.flatMap((part) =>
    part.data.devices.map((device: { deviceId: string }) => ({
      deviceId: device.deviceId,
      variant: part.data.variant,
      batch: part.data.batch,
      heldUntil: part.data.heldUntil,
    })),
  );
}

describe('an experiment sent at local time (CONTRACTS §15, §19)', () => {
  it("tests and then sends the winner at each device's local time, each device in its group and pushed once", async () => {
    const devices = await insertUserDevices(harness.ingress, project, 'lt-', 60, {
      userId: 'lt',
      timezones: ['UTC', 'Asia/Tokyo'],
    });
    const clock = utcClock(Date.now());
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['lt'],
      localTime: clock,
      variants,
      experiment: { testPercent: 50, metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
    });
    const group = (device: string) => testedVariant(id, device, 50, 2);
    const createdAt = Date.parse((await readNotification(harness.ingress, project, id)).createdAt);
    // The instant each device's local time comes round from the send: now in UTC (unless the minute turned between
    // reading the clock and sending), hours away in Tokyo.
    const instantOf = (device: string, from = createdAt) => nextLocalTime(from, zoneOf(devices.indexOf(device)), clock);
    const tested = devices.filter((device) => group(device) !== null);
    const testedNow = tested.filter((device) => instantOf(device) <= Date.now());
    // Those whose local time is now get their variant; the other tested wait for theirs, with theirs.
    const view = await eventually(async () => {
      const current = await readNotification(harness.ingress, project, id);
      expect(current.stats).toMatchObject({ targeted: tested.length, sent: testedNow.length });
      return current;
    });
    expect(view.variants.map((variant: any) => variant.stats.targeted).reduce((a: number, b: number) => a + b)).toBe(
      tested.length,
    );
    for (const device of devices)
      expect(bodiesOf(device)).toEqual(testedNow.includes(device) ? [`b-${'ab'[group(device)!]}`] : []);
    const heldForTest = await heldDevices(id);
    expect(heldForTest.map((held) => held.deviceId).sort()).toEqual(
      tested.filter((d) => !testedNow.includes(d)).sort(),
    );
    for (const held of heldForTest) {
      expect(held.variant).toBe('ab'[group(held.deviceId)!]);
      expect(held.heldUntil).toBe(instantOf(held.deviceId));
    }

    const picked = await pickWinner(harness.ingress, project, id, 'b');
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    const decidedAt = Date.parse(picked.body.data.experiment.decidedAt);
    const waiting = devices.filter((device) => group(device) === null);
    // Each waiting device gets the winner at its local time's next occurrence after the decision: now if that is
    // still this minute, else tomorrow in UTC; Tokyo's at the instant its tested devices wait for too.
    const winnerParts = await eventually(async () => {
      const held = (await heldDevices(id)).filter((part) => part.batch >= winnerBatchOffset);
      const sentNow = waiting.filter((device) => bodiesOf(device).length > 0);
      expect(held.length + sentNow.length).toBe(waiting.length);
      return { held, sentNow };
    });
    for (const device of winnerParts.sentNow) expect(bodiesOf(device)).toEqual(['b-b']);
    for (const held of winnerParts.held) {
      expect(held.variant).toBe('b');
      expect(held.heldUntil).toBe(instantOf(held.deviceId, decidedAt));
    }
    const after = await readNotification(harness.ingress, project, id);
    expect(after.stats.targeted).toBe(devices.length);
    expect(after.experiment.status).toBe('sending_winner');
    for (const device of tested) expect(bodiesOf(device).length).toBeLessThanOrEqual(1);
  });

  it("shows the winner's zones in place of the test's, and every push still held, test's and winner's", async () => {
    const devices = await insertUserDevices(harness.ingress, project, 'lz-', 40, {
      userId: 'lz',
      timezones: ['UTC', 'Asia/Tokyo'],
    });
    const clock = utcClock(Date.now());
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['lz'],
      localTime: clock,
      variants,
      experiment: { testPercent: 50, metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
    });
    const createdAt = Date.parse((await readNotification(harness.ingress, project, id)).createdAt);
    const tested = devices.filter((device) => testedVariant(id, device, 50, 2) !== null);
    const waiting = devices.filter((device) => !tested.includes(device));
    const testInstants = new Set(
      tested.map((device) => nextLocalTime(createdAt, zoneOf(devices.indexOf(device)), clock)),
    );
    const testDueNow = tested.filter(
      (device) => nextLocalTime(createdAt, zoneOf(devices.indexOf(device)), clock) <= Date.now(),
    );
    const testHeld = tested.length - testDueNow.length;
    await eventually(async () => {
      const view = await readNotification(harness.ingress, project, id);
      expect(view.stats).toMatchObject({ targeted: tested.length, sent: testDueNow.length, waiting: testHeld });
      expect(view.zones).toEqual({
        total: testInstants.size,
        sent: [...testInstants].filter((at) => at <= Date.now()).length,
      });
    });
    // The devices that wait for the winner have moved to New York since: the winner's zones are none of the test's.
    await harness.ingress.context.models.Device.updateMany(
      { projectId: project.projectId, deviceId: { $in: waiting } },
      { $set: { timezone: 'America/New_York' } },
    );
    const picked = await pickWinner(harness.ingress, project, id, 'b');
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    const newYork = nextLocalTime(Date.parse(picked.body.data.experiment.decidedAt), 'America/New_York', clock);
    const testHeldUntil = Math.min(
      ...tested
        .map((device) => nextLocalTime(createdAt, zoneOf(devices.indexOf(device)), clock))
        .filter((at) => at > Date.now()),
    );
    const view = await eventually(async () => {
      const current = await readNotification(harness.ingress, project, id);
      expect(current.stats).toMatchObject({ targeted: devices.length, waiting: testHeld + waiting.length });
      return current;
    });
    expect(view.zones).toEqual({ total: 1, sent: 0 });
    expect(view.waitingUntil).toBe(new Date(Math.min(newYork, testHeldUntil)).toISOString());
    const listed = await harness.ingress.request('GET', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
    });
    expect(listed.body.data.find((notification: { id: string }) => notification.id === id).zones).toEqual({
      total: 1,
      sent: 0,
    });
  });

  it('decides automatically that long after the last zone its test waits for', async () => {
    await insertUserDevices(harness.ingress, project, 'la-', 20, { userId: 'la', timezones: ['UTC', 'Asia/Tokyo'] });
    const clock = utcClock(Date.now());
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['la'],
      localTime: clock,
      variants,
      experiment: { testPercent: 100, metric: 'clicked', decideAfterMinutes: 5, winner: 'auto' },
    });
    const decision = await eventually(async () => {
      const job = await harness.workers.context.queues.send.getJob(`${id}-decide`);
      expect(job).toBeDefined();
      return job!;
    });
    const due = decision.timestamp + (decision.opts.delay ?? 0);
    const createdAt = Date.parse((await readNotification(harness.ingress, project, id)).createdAt);
    const lastZone = Math.max(...['UTC', 'Asia/Tokyo'].map((zone) => nextLocalTime(createdAt, zone, clock)));
    // The delay is reckoned a moment before the job's timestamp is taken.
    expect(Math.abs(due - (lastZone + 5 * 60_000))).toBeLessThan(2000);
  });
});
