import { beforeAll, expect, it } from 'vitest';
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
    // Well before the claim's lease of a minute: the broken traveller held nobody back.
    expect(Date.parse(visit.passed[0].at) - entered).toBeLessThan(10_000);
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

  const retries = stepRetryDelaysMs.reduce((sum, delay) => sum + delay, 0);
  const [left] = await eventually(
    async () => {
      const visits = await journeys.visits(id, 'device', 'f-broken');
      expect(visits[0].state).toBe('left');
      return visits;
    },
    retries + 15_000,
    200,
  );
  expect(left.leftBecause).toBe('step_failed');
  expect(left.passed.map((step: { outcome: { attempt: number } }) => step.outcome.attempt)).toEqual([1, 2, 3]);
  const attempts = left.passed.map((step: { at: string }) => Date.parse(step.at));
  expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(stepRetryDelaysMs[0]!);
  expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(stepRetryDelaysMs[1]!);
  const { stats } = await journeys.read(id);
  expect(stats).toMatchObject({ entered: 3, active: 2, exited: 1 });
}, 60_000);
