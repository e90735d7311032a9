import { beforeAll, expect, it } from 'vitest';
import type { RunnerState } from '../../src/journeys/run-claimed-steps.ts';
import { claimDueTravellers } from '../support/due-claims.ts';
import { ActiveJourneys } from '../../src/journeys/active-journeys.ts';
import { enterTravellers } from '../../src/journeys/enter-travellers.ts';
import { recordStats, type StatsChanges } from '../../src/journeys/journey-stats.ts';
import { journeyVersionId } from '../../src/models/journey.ts';
import { ProjectSettingsCache } from '../../src/projects/project-settings-cache.ts';
import { runClaimedSteps } from '../../src/journeys/run-claimed-steps.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, pushStep, useJourneyHarnessWithoutRunner } from '../support/journeys.ts';

// No journey-steps worker: what a traveller's record holds right after entry is the ingest worker's write alone.
const { harness, project, journeys } = useJourneyHarnessWithoutRunner();
const models = () => harness.ingress.context.models;
const state: RunnerState = { defaultZone: async () => 'UTC', versions: new Map() };

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [{ id: 'e-1', platform: 'android', token: 'tok-e-1' }]);
});

/** The journey's one traveller, once the ingest worker has entered it. */
const travellerOf = async (journeyId: string) =>
  (
    await waitFor(
      () => models().JourneyTraveller.find({ journeyId }).lean(),
      (found) => found.length === 1,
    )
  )[0]!;

/** Where a record is and what it waits for, as the lookup and the step runner read it. */
const placeOf = ({ state, at, waitingIn, listening }: Record<string, unknown>) => ({ state, at, waitingIn, listening });

it('writes a traveller whose journey starts with a wait already waiting in it, as the step runner moves one', async () => {
  const steps = [{ id: 'pause', type: 'wait', seconds: 3600 }, pushStep('hello', 'Hello')];
  const atEntry = await journeys.create({ name: 'entry wait', entry: { event: 'entry-wait' }, steps });
  const byRunner = await journeys.create({
    name: 'runner wait',
    entry: { event: 'runner-wait' },
    steps: [{ id: 'tag', type: 'setTags', tags: { seen: 1 } }, ...steps],
  });
  await journeys.report([deviceEvent('e-1', 'entry-wait'), deviceEvent('e-1', 'runner-wait')]);
  const entered = await travellerOf(atEntry);
  const dueAt = new Date(entered.enteredAt.getTime() + 3600_000);
  // One write: the entry's insert, which no claim or move of the step runner followed.
  expect(entered).toMatchObject({
    state: 'due',
    at: 'hello',
    dueAt,
    waitingIn: 'pause',
    listening: null,
    seq: 1,
    runId: null,
    claim: null,
    movedBy: null,
    passed: [{ stepId: 'pause', at: entered.enteredAt, outcome: { until: dueAt.toISOString() } }],
  });

  await travellerOf(byRunner);
  const { claim, travellers } = await claimDueTravellers(harness.ingress.context, 0);
  expect(travellers.map((traveller) => traveller.journeyId)).toEqual([byRunner]);
  await runClaimedSteps(harness.ingress.context, state, claim, travellers);
  const moved = await travellerOf(byRunner);
  expect(placeOf(entered)).toEqual(placeOf(moved));
  expect(moved.passed.map(({ stepId }) => stepId)).toEqual(['tag', 'pause']);
  await eventually(async () => {
    const [entryStats, runnerStats] = [(await journeys.read(atEntry)).stats, (await journeys.read(byRunner)).stats];
    expect(runnerStats.steps.pause).toMatchObject({ entered: 1, waiting: 1 });
    expect(entryStats.steps).toEqual({ pause: runnerStats.steps.pause, hello: runnerStats.steps.hello });
    expect(entryStats).toMatchObject({ entered: 1, active: 1, completed: 0, exited: 0 });
  });
});

it('writes a traveller whose journey starts with a split and a waitForEvent listening from its entry on', async () => {
  const journeyId = await journeys.create({
    name: 'entry listen',
    entry: { event: 'entry-listen' },
    steps: [
      { id: 'draw', type: 'split', paths: ['a', 'b'].map((name) => ({ name, percent: 50, next: 'gate' })) },
      {
        id: 'gate',
        type: 'waitForEvent',
        event: 'entry-done',
        timeoutSeconds: 600,
        onEvent: 'thanks',
        onTimeout: 'exit',
      },
      pushStep('thanks', 'Thanks'),
    ],
  });
  await journeys.report([deviceEvent('e-1', 'entry-listen')]);
  const entered = await travellerOf(journeyId);
  expect(entered).toMatchObject({
    state: 'due',
    at: 'gate',
    dueAt: new Date(entered.enteredAt.getTime() + 600_000),
    waitingIn: 'gate',
    listening: { stepId: 'gate', event: 'entry-done', since: entered.enteredAt },
    seq: 2,
    movedBy: null,
    passed: [{ stepId: 'draw', at: entered.enteredAt, outcome: { path: expect.stringMatching(/^[ab]$/) } }],
  });
  await eventually(async () =>
    expect((await journeys.read(journeyId)).stats.steps).toMatchObject({
      draw: { entered: 1, waiting: 0 },
      gate: { entered: 1, waiting: 1 },
    }),
  );

  // An event after the entry is heard at the gate: the traveller goes on to the push, due now.
  await journeys.report([deviceEvent('e-1', 'entry-done')]);
  await waitFor(
    () => travellerOf(journeyId),
    (traveller) => traveller.at === 'thanks',
  );
  await eventually(async () =>
    expect((await journeys.read(journeyId)).stats.steps.gate).toMatchObject({ entered: 1, waiting: 0 }),
  );
});

it('counts an entry that two ingest workers decided on at once once, with its wait', async () => {
  const journeyId = await journeys.create({
    name: 'entry twice',
    entry: { event: 'entry-twice' },
    steps: [{ id: 'hold', type: 'wait', seconds: 3600 }, pushStep('later', 'Later')],
  });
  const context = harness.ingress.context;
  const deps = {
    ...context,
    activeJourneys: new ActiveJourneys(context),
    settings: new ProjectSettingsCache(context.models),
  };
  const { journeys: active, versions } = await deps.activeJourneys.forProject(project.projectId);
  const journey = active.find((candidate) => candidate._id === journeyId)!;
  const entry = {
    journey,
    version: versions.get(journeyVersionId(journeyId, journey.version)),
    event: { type: 'entry-twice', subjectType: 'device' as const, subjectId: 'e-1', data: {} },
    eventId: 'entry-twice:000',
    visit: 1,
  };
  // Two workers that read the subject's visits before either wrote enter it as the same visit.
  const [first, second] = [new Map<string, StatsChanges>(), new Map<string, StatsChanges>()];
  const stored = await Promise.all([
    enterTravellers(deps, project.projectId, [entry], new Date(), first),
    enterTravellers(deps, project.projectId, [entry], new Date(), second),
  ]);
  await Promise.all([recordStats(deps, first), recordStats(deps, second)]);
  expect(stored.sort()).toEqual([0, 1]);
  expect(await models().JourneyTraveller.countDocuments({ journeyId })).toBe(1);
  await eventually(async () =>
    expect((await journeys.read(journeyId)).stats).toMatchObject({
      entered: 1,
      active: 1,
      steps: { hold: { entered: 1, waiting: 1 } },
    }),
  );
});
