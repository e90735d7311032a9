import { expect, it } from 'vitest';
import { journeyVersionId } from '../../src/models/journey.ts';
import { travellerId } from '../../src/models/journey-traveller.ts';
import type { JourneyVersion } from '../../src/journeys/active-journeys.ts';
import { runClaimedSteps } from '../../src/journeys/run-claimed-steps.ts';
import { hearEvent } from '../../src/journeys/traveller-events.ts';
import { claimStepRuns, holdForEvent, releaseStepRuns } from '../../src/journeys/traveller-claims.ts';
import { claimDueTravellers } from '../support/due-claims.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { travellerWrites, useStepRunnerHarness } from '../support/step-runner.ts';
import { eventually } from '../support/eventually.ts';
import { seededTraveller } from '../support/journey-faults.ts';
import { bodiesTo, deviceEvent, pushStep } from '../support/journeys.ts';

const { harness, project, journeys } = useStepRunnerHarness();
const context = () => harness.ingress.context;
const runnerState = () => ({ defaultZone: async () => 'UTC', versions: new Map() });

/**
 * A journey that waits for `name`-paid and otherwise reminds, and a traveller for each of `ids` (a device of its own)
 * listening at its waitForEvent; those of `timedOut` with their timeout due a minute ago (before the events the
 * registrations queued, which a timeout due after them would wait for), the others in an hour.
 */
async function listeningTravellers(name: string, ids: string[], timedOut: string[]) {
  const event = `${name}-paid`;
  const journeyId = await journeys.create({
    name,
    entry: { event: `${name}-enter` },
    steps: [
      { id: 'listen', type: 'waitForEvent', event, timeoutSeconds: 3600, onEvent: 'exit', onTimeout: 'remind' },
      pushStep('remind', 'Still in your cart'),
    ],
  });
  await registerDevices(
    harness.ingress,
    project,
    ids.map((id) => ({ id, platform: 'android' as const, token: `${project.projectId}-${id}` })),
  );
  const now = new Date();
  const [due, later] = [new Date(now.getTime() - 60_000), new Date(now.getTime() + 3600_000)];
  await context().models.JourneyTraveller.insertMany(
    ids.map((id) => ({
      ...seededTraveller(
        { projectId: project.projectId, journeyId, subjectId: id, event: `${name}-enter`, at: 'listen', dueAt: now },
        now,
      ),
      dueAt: timedOut.includes(id) ? due : later,
      listening: { stepId: 'listen', event, since: now },
      waitingIn: 'listen',
    })),
  );
  const version = await context().models.JourneyVersion.findById(journeyVersionId(journeyId, 1)).lean();
  return { journeyId, event, version: version as unknown as JourneyVersion };
}

const recordOf = async (journeyId: string, id: string) =>
  (await context()
    .models.JourneyTraveller.findById(travellerId(journeyId, 'device', id, 1))
    .lean())!;

/** CONTRACTS §18: the step after a waitForEvent's timeout runs in the same run; one write records both. */
it('records a timed-out waitForEvent and the push it leads to in one write, each counted once', async () => {
  const ids = ['t0', 't1'];
  const { journeyId } = await listeningTravellers('fold-timeout', ids, ids);
  const { claim, travellers } = await claimDueTravellers(context(), context().config.journeyClaimLeaseMs);
  expect(travellers).toHaveLength(2);
  const run = () => runClaimedSteps(context(), runnerState(), claim, travellers);
  expect(await travellerWrites(context().models, run)).toBe(1);
  for (const id of ids) {
    const traveller = await recordOf(journeyId, id);
    expect({ state: traveller.state, endReason: traveller.endReason, seq: traveller.seq }).toEqual({
      state: 'done',
      endReason: 'completed',
      seq: 2,
    });
    expect(traveller.passed.map(({ stepId, outcome }) => [stepId, Object.keys(outcome)])).toEqual([
      ['listen', ['timedOut']],
      ['remind', ['notificationId']],
    ]);
  }
  const { stats } = await journeys.read(journeyId);
  expect(stats).toMatchObject({ completed: 2, steps: { remind: { entered: 2 } } });
  await eventually(() => {
    for (const id of ids)
      expect(bodiesTo(harness.sandbox, `${project.projectId}-${id}`)).toEqual(['Still in your cart']);
  });
}, 60_000);

/**
 * The reminder may already be out once the timeout is claimed: an event then does not move the traveller, which
 * times out as claimed; a traveller whose timeout is not claimed still hears it.
 */
it('leaves a traveller whose timeout is claimed to the timeout, and moves one still listening', async () => {
  const { journeyId, event, version } = await listeningTravellers('hold-timeout', ['h0', 'h1'], ['h0']);
  const { claim, travellers } = await claimDueTravellers(context(), context().config.journeyClaimLeaseMs);
  expect(travellers.map(({ subjectId }) => subjectId)).toEqual(['h0']);
  const hear = async (id: string, eventId: string) =>
    hearEvent(
      context(),
      version,
      (await recordOf(journeyId, id)) as never,
      {
        event: deviceEvent(id, event) as never,
        eventId,
      },
      new Date(),
    );
  expect(await hear('h0', 'job-a:000')).toBeNull();
  expect(await hear('h1', 'job-a:001')).toBe('exit');
  await runClaimedSteps(context(), runnerState(), claim, travellers);

  const [claimed, heard] = [await recordOf(journeyId, 'h0'), await recordOf(journeyId, 'h1')];
  expect(claimed.passed.map(({ stepId, outcome }) => [stepId, outcome])).toMatchObject([
    ['listen', { timedOut: true }],
    ['remind', {}],
  ]);
  expect(heard.passed.map(({ stepId, outcome }) => [stepId, outcome])).toEqual([['listen', { heard: event }]]);
  expect(heard.state).toBe('done');
  await eventually(() => expect(bodiesTo(harness.sandbox, `${project.projectId}-h0`)).toEqual(['Still in your cart']));
  expect(bodiesTo(harness.sandbox, `${project.projectId}-h1`)).toEqual([]);
}, 60_000);

/** A run whose write is lost sent its reminders: the next claim runs the timeout again under its runId, none twice. */
it('sends no reminder twice when the write of a timeout and its push is lost and the claim taken over', async () => {
  const ids = ['r0', 'r1'];
  const { journeyId } = await listeningTravellers('lost-write', ids, ids);
  const first = await claimDueTravellers(context(), 0);
  const model = context().models.JourneyTraveller;
  const real = model.bulkWrite;
  model.bulkWrite = (async () => {
    throw new Error('the write is lost');
  }) as unknown as typeof real;
  try {
    await runClaimedSteps(context(), runnerState(), first.claim, first.travellers);
  } finally {
    model.bulkWrite = real;
  }
  expect((await recordOf(journeyId, 'r0')).state).toBe('due');
  const again = await claimDueTravellers(context(), context().config.journeyClaimLeaseMs);
  expect(again.travellers.map(({ runId }) => runId)).toEqual(first.travellers.map(({ runId }) => runId));
  await runClaimedSteps(context(), runnerState(), again.claim, again.travellers);

  for (const id of ids) expect((await recordOf(journeyId, id)).state).toBe('done');
  const notifications = await context().models.Notification.find({ journeyId }).lean();
  expect(notifications).toHaveLength(1);
  await eventually(() => {
    for (const id of ids)
      expect(bodiesTo(harness.sandbox, `${project.projectId}-${id}`)).toEqual(['Still in your cart']);
  });
}, 60_000);

/** The reminder's queue add answered an error after it was made: the step runs again under its runId, none twice. */
it('sends no reminder twice when the push after a timeout fails once it was queued', async () => {
  const ids = ['q0', 'q1'];
  const { journeyId } = await listeningTravellers('lost-answer', ids, ids);
  const { claim, travellers } = await claimDueTravellers(context(), context().config.journeyClaimLeaseMs);
  const queue = context().queues.send;
  const real = queue.add;
  let failures = 0;
  queue.add = (async (...args: Parameters<typeof real>) => {
    const added = await real.apply(queue, args);
    if (failures++ > 0) return added;
    throw new Error('the answer is lost');
  }) as typeof real;
  try {
    await runClaimedSteps(context(), runnerState(), claim, travellers);
  } finally {
    queue.add = real;
  }
  expect(failures).toBeGreaterThanOrEqual(1);
  for (const id of ids) expect((await recordOf(journeyId, id)).state).toBe('done');
  expect(await context().models.Notification.countDocuments({ journeyId })).toBe(1);
  await eventually(() => {
    for (const id of ids)
      expect(bodiesTo(harness.sandbox, `${project.projectId}-${id}`)).toEqual(['Still in your cart']);
  });
}, 60_000);

/**
 * A step run let go unrun under its own claim's runId never ran; one let go after it took a lapsed claim's over may have
 * (its worker died after the push): an event holds the first, not the second, nor one a live claim holds at the same
 * step; a claim of an earlier step holds nothing.
 */
it('lets an event hold a traveller let go unrun by a fresh claim, not by a takeover nor under a live claim', async () => {
  const holds = async (id: string) => holdForEvent(context(), `event:${id}`, { _id: id, seq: 3 });
  const step = (id: string) => [{ _id: id, seq: 3 }];
  await claimStepRuns(context(), 'fresh', 60_000, step('fresh-unrun'));
  await releaseStepRuns(context(), 'fresh', ['fresh-unrun'], 'unrun');
  expect(await holds('fresh-unrun')).toBe(true);

  await claimStepRuns(context(), 'died', 0, step('taken-over'));
  expect(await claimStepRuns(context(), 'takeover', 60_000, step('taken-over'))).toEqual(
    new Map([['taken-over', 'died']]),
  );
  await releaseStepRuns(context(), 'takeover', ['taken-over'], 'unrun');
  expect(await holds('taken-over')).toBe(false);

  await claimStepRuns(context(), 'live', 60_000, step('live'));
  expect(await holds('live')).toBe(false);
  expect(await holdForEvent(context(), 'event:live', { _id: 'live', seq: 4 })).toBe(true);
});
