import { expect, it } from 'vitest';
import { travellerId } from '../../src/models/journey-traveller.ts';
import { claimDueTravellers } from '../support/due-claims.ts';
import { runClaimedSteps } from '../../src/journeys/run-claimed-steps.ts';
import { exitTraveller } from '../../src/journeys/traveller-events.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { travellerWrites, useStepRunnerHarness } from '../support/step-runner.ts';
import { eventually } from '../support/eventually.ts';
import { seededTraveller } from '../support/journey-faults.ts';
import { bodiesTo, pushStep } from '../support/journeys.ts';

const { harness, project, journeys } = useStepRunnerHarness();

/** A journey with `steps`, and a traveller for each of `ids` (a device of its own) due at its first step now. */
async function travellersDueAtFirstStep(name: string, steps: object[], ids: string[]): Promise<string> {
  const context = harness.ingress.context;
  const entry = `${name}-enter`;
  const journeyId = await journeys.create({ name, entry: { event: entry }, steps });
  await registerDevices(
    harness.ingress,
    project,
    ids.map((id) => ({ id, platform: 'android' as const, token: `${project.projectId}-${id}` })),
  );
  const now = new Date();
  const at = (steps[0] as { id: string }).id;
  await context.models.JourneyTraveller.insertMany(
    ids.map((id) =>
      seededTraveller({ projectId: project.projectId, journeyId, subjectId: id, event: entry, at, dueAt: now }, now),
    ),
  );
  return journeyId;
}

/**
 * CONTRACTS §18: a step due at once after another runs in the same run, and an exit rule applies at once: a traveller
 * that exits while its step runs takes no later step, the chained ones included.
 */
it('runs the steps due at once after one in the same run, and none for a traveller that exited meanwhile', async () => {
  const context = harness.ingress.context;
  const ids = ['c0', 'c1', 'c2'];
  const journeyId = await travellersDueAtFirstStep(
    'chain',
    [
      { id: 'tag', type: 'setTags', tags: { stage: 'tagged' } },
      pushStep('hello', 'Hello'),
      { id: 'later', type: 'wait', seconds: 3600 },
      pushStep('bye', 'Bye'),
    ],
    ids,
  );
  const { claim, travellers } = await claimDueTravellers(context, context.config.journeyClaimLeaseMs);
  expect(travellers).toHaveLength(3);
  const exited = await context.models.JourneyTraveller.findById(travellerId(journeyId, 'device', 'c2', 1)).lean();
  expect(await exitTraveller(context.models, { ...exited!, _id: exited!._id } as never)).toBe(true);
  const state = { defaultZone: async () => 'UTC', versions: new Map() };
  await runClaimedSteps(context, state, claim, travellers);

  const after = await context.models.JourneyTraveller.find({ journeyId }).sort({ _id: 1 }).lean();
  const byId = new Map(after.map((traveller) => [traveller.subjectId, traveller]));
  for (const id of ['c0', 'c1']) {
    const traveller = byId.get(id)!;
    expect(traveller.passed.map((passed) => passed.stepId)).toEqual(['tag', 'hello', 'later']);
    expect({ state: traveller.state, at: traveller.at, claim: traveller.claim }).toEqual({
      state: 'due',
      at: 'bye',
      claim: null,
    });
  }
  const gone = byId.get('c2')!;
  expect({ state: gone.state, endReason: gone.endReason, passed: gone.passed }).toEqual({
    state: 'done',
    endReason: 'exit_rule',
    passed: [],
  });
  await eventually(() => {
    for (const id of ['c0', 'c1']) expect(bodiesTo(harness.sandbox, `${project.projectId}-${id}`)).toEqual(['Hello']);
  });
  expect(bodiesTo(harness.sandbox, `${project.projectId}-c2`)).toEqual([]);
}, 60_000);

/**
 * A step's move records the steps that only change the traveller's record after it at once (a split, the start of a
 * waitForEvent): one write for them all, with each step passed and counted once.
 */
it('records a push and the record-only steps after it at once in one write, each counted once', async () => {
  const context = harness.ingress.context;
  const ids = ['f0', 'f1'];
  const journeyId = await travellersDueAtFirstStep(
    'fold',
    [
      pushStep('hello', 'Hi'),
      { id: 'pick', type: 'split', paths: ['a', 'b'].map((name) => ({ name, percent: 50, next: 'listen' })) },
      {
        id: 'listen',
        type: 'waitForEvent',
        event: 'fold-done',
        timeoutSeconds: 3600,
        onEvent: 'exit',
        onTimeout: 'exit',
      },
    ],
    ids,
  );
  const { claim, travellers } = await claimDueTravellers(context, context.config.journeyClaimLeaseMs);
  const state = { defaultZone: async () => 'UTC', versions: new Map() };
  const writes = await travellerWrites(context.models, () => runClaimedSteps(context, state, claim, travellers));
  expect(writes).toBe(1);
  const after = await context.models.JourneyTraveller.find({ journeyId }).lean();
  for (const traveller of after) {
    expect(traveller.passed.map((passed) => passed.stepId)).toEqual(['hello', 'pick']);
    expect({ state: traveller.state, at: traveller.at, listening: traveller.listening?.stepId }).toEqual({
      state: 'due',
      at: 'listen',
      listening: 'listen',
    });
  }
  const { stats } = await journeys.read(journeyId);
  expect(stats.steps.hello).toMatchObject({ entered: 2, waiting: 0 });
  expect(stats.steps.pick).toMatchObject({ entered: 2, waiting: 0 });
  expect(stats.steps.listen).toMatchObject({ entered: 2, waiting: 2 });
  await eventually(() => {
    for (const id of ids) expect(bodiesTo(harness.sandbox, `${project.projectId}-${id}`)).toEqual(['Hi']);
  });
}, 60_000);
