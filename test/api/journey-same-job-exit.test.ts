import { beforeAll, expect, it } from 'vitest';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, pushStep, useJourneyHarness } from '../support/journeys.ts';

const { harness, project, journeys, bodies } = useJourneyHarness();

/** Journeys whose first step the entry runs (a wait: the traveller is stored waiting) or leaves to the step runner. */
const starts = [
  {
    first: 'a wait',
    key: 'sj-wait',
    steps: [{ id: 'pause', type: 'wait', seconds: 1 }, pushStep('hello', 'Hello')],
    passedAtEntry: ['pause'],
  },
  { first: 'a push', key: 'sj-push', steps: [pushStep('hello', 'Hello')], passedAtEntry: [] },
];

beforeAll(async () => {
  await registerDevices(
    harness.ingress,
    project,
    starts.flatMap(({ key }) => [
      { id: `${key}-gone`, platform: 'android' as const, token: `${key}-tok-gone` },
      { id: `${key}-stays`, platform: 'android' as const, token: `${key}-tok-stays` },
    ]),
  );
});

it.each(starts)(
  'takes out at once a subject that one request enters and then reports an exit event for ($first first)',
  async ({ key, steps, passedAtEntry }) => {
    const id = await journeys.create({
      name: `Same request ${key}`,
      entry: { event: `${key}-cart` },
      exit: [{ event: `${key}-bought` }],
      steps,
    });
    await journeys.report([deviceEvent(`${key}-gone`, `${key}-cart`), deviceEvent(`${key}-gone`, `${key}-bought`)]);
    const [visit, ...earlier] = await waitFor(
      () => journeys.visits(id, 'device', `${key}-gone`),
      (visits) => visits[0]?.state === 'left',
    );
    expect(earlier).toEqual([]);
    expect(visit).toMatchObject({ visit: 1, leftBecause: 'exit_rule' });
    expect(visit.passed.map((step: { stepId: string }) => step.stepId)).toEqual(passedAtEntry);
    await eventually(async () => {
      const { stats } = await journeys.read(id);
      expect(stats).toMatchObject({ entered: 1, active: 0, completed: 0, exited: 1 });
      expect(Object.values(stats.steps).map((step) => (step as { waiting: number }).waiting)).toEqual(
        steps.map(() => 0),
      );
    });

    // A subject entering in a later request is due no sooner: once its push is out, the step runner has passed the
    // time the first subject's push would have been due at.
    await journeys.report([deviceEvent(`${key}-stays`, `${key}-cart`)]);
    await waitFor(
      async () => bodies(`${key}-tok-stays`),
      (list) => list.length > 0,
    );
    expect(bodies(`${key}-tok-stays`)).toEqual(['Hello']);
    expect(bodies(`${key}-tok-gone`)).toEqual([]);
    await journeys.statsBecome(id, {
      entered: 2,
      active: 0,
      completed: 1,
      exited: 1,
      steps: { hello: { sent: 1 } },
    });
  },
);

it('leaves a subject that its entry already took through the journey completed, not taken out, at a later exit event', async () => {
  const id = await journeys.create({
    name: 'Same request, done at entry',
    entry: { event: 'sj-split-cart' },
    exit: [{ event: 'sj-split-bought' }],
    steps: [{ id: 'draw', type: 'split', paths: ['a', 'b'].map((name) => ({ name, percent: 50, next: 'exit' })) }],
  });
  await journeys.report([deviceEvent('sj-wait-gone', 'sj-split-cart'), deviceEvent('sj-wait-gone', 'sj-split-bought')]);
  const [visit] = await waitFor(
    () => journeys.visits(id, 'device', 'sj-wait-gone'),
    (visits) => visits[0]?.state === 'left',
  );
  expect(visit).toMatchObject({ leftBecause: 'completed' });
  await journeys.statsBecome(id, { entered: 1, active: 0, completed: 1, exited: 0 });
});
