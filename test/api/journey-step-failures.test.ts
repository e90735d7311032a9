import { beforeAll, expect, it, onTestFinished, vi } from 'vitest';
import { deviceKey } from '../../src/models/device.ts';
import { stepRetryDelaysMs } from '../../src/journeys/fail-travellers.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { deviceEvent, useJourneyHarness } from '../support/journeys.ts';

const { harness, project, journeys } = useJourneyHarness();
const devices = ['f-good-1', 'f-broken', 'f-good-2'];

beforeAll(async () => {
  await registerDevices(
    harness.ingress,
    project,
    devices.map((id) => ({ id, platform: 'android' as const, token: `tok-${id}` })),
  );
  // A zone no clock knows, as a device stored by an earlier release may hold: its local-time wait throws.
  await harness.ingress.context.models.Device.collection.updateOne(
    { _id: deviceKey(project.projectId, 'f-broken') as never },
    { $set: { timezone: 'Mars/Olympus_Mons' } },
  );
});

/** parcelvoy/platform#434: here a step's failure affects only its traveller (CONTRACTS §18). */
it('a step that throws for one traveller retries it alone, then it leaves with the reason; the others go on at once', async () => {
  const id = await journeys.create({
    name: 'Morning',
    entry: { event: 'f-enter' },
    steps: [
      { id: 'morning', type: 'wait', untilLocalTime: '09:00' },
      { id: 'tag', type: 'setTags', tags: { a: 1 } },
    ],
  });
  const entered = Date.now();
  await journeys.report(devices.map((device) => deviceEvent(device, 'f-enter')));

  for (const good of ['f-good-1', 'f-good-2']) {
    const [visit] = await eventually(async () => {
      const visits = await journeys.visits(id, 'device', good);
      expect(visits[0]?.passed.map((step: { stepId: string }) => step.stepId)).toEqual(['morning']);
      return visits;
    });
    expect(visit).toMatchObject({ state: 'travelling', at: 'morning' });
    // Well before the claim's lease (a minute) lapses, as it would if the broken traveller held the others back; a
    // bound of half the lease leaves the ingest and the first run a loaded machine's time.
    expect(Date.parse(visit.passed[0].at) - entered).toBeLessThan(
      harness.ingress.context.config.journeyClaimLeaseMs / 2,
    );
  }

  const [retrying] = await eventually(async () => {
    const visits = await journeys.visits(id, 'device', 'f-broken');
    expect(visits[0]?.passed).toHaveLength(1);
    return visits;
  });
  expect(retrying).toMatchObject({ state: 'travelling', at: 'morning' });
  expect(retrying.passed[0]).toMatchObject({
    stepId: 'morning',
    outcome: { failed: expect.stringContaining('Mars/Olympus_Mons'), attempt: 1, retryAt: retrying.until },
  });

  // The workers of this harness run in this process, so a faked Date is their clock: once a retry is set for a time,
  // the clock moves there rather than waiting for it; a retry run before its time would show in the attempts' times.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  for (const [index, delay] of stepRetryDelaysMs.entries()) {
    const [visit] = await eventually(async () => {
      const visits = await journeys.visits(id, 'device', 'f-broken');
      expect(visits[0].passed.length).toBeGreaterThan(index);
      return visits;
    });
    const { at, outcome } = visit.passed[index];
    expect(outcome).toMatchObject({ attempt: index + 1 });
    expect(Date.parse(outcome.retryAt) - Date.parse(at)).toBe(delay);
    if (visit.passed.length === index + 1 && Date.now() < Date.parse(outcome.retryAt))
      vi.setSystemTime(Date.parse(outcome.retryAt));
  }
  const [left] = await eventually(async () => {
    const visits = await journeys.visits(id, 'device', 'f-broken');
    expect(visits[0].state).toBe('left');
    return visits;
  });
  expect(left.leftBecause).toBe('step_failed');
  expect(left.passed.map((step: { outcome: { attempt: number } }) => step.outcome.attempt)).toEqual([1, 2, 3]);
  const attempts = left.passed.map((step: { at: string }) => Date.parse(step.at));
  expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(stepRetryDelaysMs[0]!);
  expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(stepRetryDelaysMs[1]!);
  // The counts are written after the move that ends the visit.
  await journeys.statsBecome(id, { entered: 3, active: 2, exited: 1 });
}, 60_000);
