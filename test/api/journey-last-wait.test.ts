import { expect, it } from 'vitest';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { deviceEvent, pushStep, useJourneyHarness, waitsOver } from '../support/journeys.ts';

const { harness, project, journeys, bodies } = useJourneyHarness();
const models = () => harness.ingress.context.models;

/*
 * A journey may end on a wait (a cool-off after the last push): until the wait is over the traveller is still
 * travelling it (CONTRACTS §18), so an exit rule still takes it out, `afterExit` does not enter it again, and the
 * wait's `waiting` count holds it until it completes.
 */
it('a traveller whose last step is a wait travels until the wait is over, then completes', async () => {
  await registerDevices(harness.ingress, project, [
    { id: 'lw-stay', platform: 'android', token: 'lw-tok-stay' },
    { id: 'lw-quit', platform: 'android', token: 'lw-tok-quit' },
  ]);
  const id = await journeys.create({
    name: 'Cool-off',
    entry: { event: 'lw-enter' },
    exit: [{ event: 'lw-leave' }],
    steps: [pushStep('hello', 'Hello'), { id: 'linger', type: 'wait', seconds: 3600 }],
  });
  await journeys.report([deviceEvent('lw-stay', 'lw-enter'), deviceEvent('lw-quit', 'lw-enter')]);
  const lingering = await eventually(async () => {
    const [visit] = await journeys.visits(id, 'device', 'lw-stay');
    expect(visit).toMatchObject({ state: 'travelling', at: 'linger' });
    return visit;
  });
  expect(Date.parse(lingering.until) - Date.parse(lingering.passed[0].at)).toBeGreaterThan(3500_000);
  await eventually(() => expect(bodies('lw-tok-stay')).toEqual(['Hello']));
  await journeys.statsBecome(id, {
    entered: 2,
    active: 2,
    completed: 0,
    steps: { linger: { entered: 2, waiting: 2 } },
  });

  // One job: a second entry event of the one still waiting, and the exit event of the other.
  await journeys.report([deviceEvent('lw-stay', 'lw-enter'), deviceEvent('lw-quit', 'lw-leave')]);
  await eventually(async () =>
    expect(await journeys.visits(id, 'device', 'lw-quit')).toMatchObject([{ state: 'left', leftBecause: 'exit_rule' }]),
  );
  expect(await journeys.visits(id, 'device', 'lw-stay')).toHaveLength(1);

  await waitsOver(models(), [id]);
  await eventually(async () =>
    expect(await journeys.visits(id, 'device', 'lw-stay')).toMatchObject([{ state: 'left', leftBecause: 'completed' }]),
  );
  await journeys.statsBecome(id, {
    entered: 2,
    active: 0,
    completed: 1,
    exited: 1,
    steps: { linger: { entered: 2, waiting: 0 } },
  });
  expect(bodies('lw-tok-stay')).toEqual(['Hello']);
});

it('a journey of one wait: the entry stores its traveller waiting, and it completes when the wait is over', async () => {
  await registerDevices(harness.ingress, project, [{ id: 'lw-only', platform: 'android', token: 'lw-tok-only' }]);
  const id = await journeys.create({
    name: 'Quiet period',
    entry: { event: 'lw-quiet' },
    steps: [{ id: 'hold', type: 'wait', seconds: 3600 }],
  });
  await journeys.report([deviceEvent('lw-only', 'lw-quiet')]);
  await eventually(async () =>
    expect(await journeys.visits(id, 'device', 'lw-only')).toMatchObject([{ state: 'travelling', at: 'hold' }]),
  );
  await journeys.statsBecome(id, { active: 1, completed: 0, steps: { hold: { waiting: 1 } } });

  await waitsOver(models(), [id]);
  await journeys.statsBecome(id, { active: 0, completed: 1, steps: { hold: { waiting: 0 } } });
  expect(await journeys.visits(id, 'device', 'lw-only')).toMatchObject([{ state: 'left', leftBecause: 'completed' }]);
});
