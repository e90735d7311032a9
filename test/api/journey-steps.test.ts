import { beforeAll, describe, expect, it } from 'vitest';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, listening, pushStep, useJourneyHarness, waitsOver } from '../support/journeys.ts';

const { harness, project, journeys, bodies } = useJourneyHarness();
const models = () => harness.ingress.context.models;
const push = pushStep;
const device = deviceEvent;

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [
    { id: 's-wait', platform: 'android', token: 's-tok-wait' },
    { id: 's-listen', platform: 'android', token: 's-tok-listen' },
    { id: 's-timeout', platform: 'android', token: 's-tok-timeout' },
    { id: 's-vip', platform: 'android', token: 's-tok-vip', tags: { tier: 'vip' } },
    { id: 's-basic', platform: 'android', token: 's-tok-basic', tags: { tier: 'basic' } },
    { id: 's-exit', platform: 'android', token: 's-tok-exit' },
    { id: 's-stay', platform: 'android', token: 's-tok-stay' },
    { id: 's-again', platform: 'android', token: 's-tok-again' },
    { id: 's-tags-a', platform: 'android', token: 's-tok-tags-a', userId: 'tagged-user' },
    { id: 's-tags-b', platform: 'ios', token: 's-tok-tags-b', userId: 'tagged-user' },
    { id: 's-version', platform: 'android', token: 's-tok-version' },
    { id: 's-clock', platform: 'android', token: 's-tok-clock' },
  ]);
});

describe('journey steps on real services (CONTRACTS §18)', () => {
  it('runs a wait then a push, shows the visit in the traveller lookup and counts it in stats', async () => {
    const id = await journeys.create({
      name: 'Welcome',
      entry: { event: 'w-signup' },
      steps: [{ id: 'pause', type: 'wait', seconds: 1 }, push('hello', 'Hello {{ entry_event.data.name }}')],
    });
    const reportedAt = Date.now();
    await journeys.report([device('s-wait', 'w-signup', { name: 'Ann' })]);
    await waitFor(
      async () => bodies('s-tok-wait'),
      (list) => list.includes('Hello Ann'),
    );
    const delivered = harness.sandbox.deliveries('s-tok-wait').at(-1)!;
    expect(Date.parse(delivered.receivedAt) - reportedAt).toBeGreaterThanOrEqual(1000);
    const [visit] = await eventually(async () => {
      const visits = await journeys.visits(id, 'device', 's-wait');
      expect(visits[0].state).toBe('left');
      return visits;
    });
    expect(visit).toMatchObject({ visit: 1, version: 1, leftBecause: 'completed', entryEvent: { type: 'w-signup' } });
    expect(visit.passed.map((step: { stepId: string }) => step.stepId)).toEqual(['pause', 'hello']);
    expect(visit.passed[1].outcome.notificationId).toMatch(/^jp-/);
    // Counted on the step, not one notification per traveller in the project's list.
    const listed = await harness.ingress.request('GET', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((notification: { id: string }) => notification.id)).not.toContain(
      visit.passed[1].outcome.notificationId,
    );
    // The counts are written after the move that ends the visit, and sent once the push's delivery is recorded.
    await eventually(async () => {
      const { stats } = await journeys.read(id);
      expect(stats.steps.hello.sent).toBe(1);
      expect(stats).toMatchObject({ entered: 1, active: 0, completed: 1, exited: 0 });
      expect(stats.steps.pause).toMatchObject({ entered: 1, waiting: 0 });
    });
  });

  it('waitForEvent: goes on at a later event, not at one from before the step, and to onTimeout without one', async () => {
    const id = await journeys.create({
      name: 'Cart',
      entry: { event: 'c-added' },
      steps: [
        { id: 'gate', type: 'waitForEvent', event: 'c-paid', timeoutSeconds: 2, onEvent: 'thanks', onTimeout: 'nudge' },
        push('thanks', 'Thanks', { next: 'exit' }),
        push('nudge', 'Your cart waits'),
      ],
    });
    // c-paid before the traveller reached the step: it does not count, so s-timeout times out.
    await journeys.report([device('s-timeout', 'c-paid'), device('s-timeout', 'c-added')]);
    await journeys.report([device('s-listen', 'c-added')]);
    await listening(models(), id, 'gate', ['s-listen']);
    await journeys.report([device('s-listen', 'c-paid')]);
    await waitFor(
      async () => [...bodies('s-tok-listen'), ...bodies('s-tok-timeout')],
      (list) => list.length === 2,
    );
    expect(bodies('s-tok-listen')).toEqual(['Thanks']);
    expect(bodies('s-tok-timeout')).toEqual(['Your cart waits']);
  });

  it('waitForEvent going to exit at the event completes the traveller in stats', async () => {
    const id = await journeys.create({
      name: 'Paid',
      entry: { event: 'p-added' },
      steps: [
        { id: 'gate', type: 'waitForEvent', event: 'p-paid', timeoutSeconds: 600, onEvent: 'exit', onTimeout: 'exit' },
      ],
    });
    await journeys.report([device('s-paid', 'p-added')]);
    await listening(models(), id, 'gate', ['s-paid']);
    await journeys.report([device('s-paid', 'p-paid')]);
    await eventually(async () => {
      const { stats } = await journeys.read(id);
      expect(stats.steps.gate.waiting).toBe(0);
      expect(stats).toMatchObject({ entered: 1, active: 0, completed: 1, exited: 0 });
    });
    const [visit] = await journeys.visits(id, 'device', 's-paid');
    expect(visit).toMatchObject({ state: 'left', leftBecause: 'completed' });
  });

  it('branches on tags and splits by percent, each traveller once', { timeout: 120_000 }, async () => {
    await journeys.create({
      name: 'Tiers',
      entry: { event: 't-open' },
      steps: [
        {
          id: 'tier',
          type: 'branch',
          match: 'all',
          conditions: [{ tag: 'tier', op: 'eq', value: 'vip' }],
          onTrue: 'vip',
          onFalse: 'basic',
        },
        push('vip', 'For VIPs', { next: 'exit' }),
        push('basic', 'For everyone'),
      ],
    });
    await journeys.report([device('s-vip', 't-open'), device('s-basic', 't-open')]);
    await waitFor(
      async () => [...bodies('s-tok-vip'), ...bodies('s-tok-basic')],
      (list) => list.length === 2,
    );
    expect(bodies('s-tok-vip')).toEqual(['For VIPs']);
    expect(bodies('s-tok-basic')).toEqual(['For everyone']);

    const split = await journeys.create({
      name: 'Split',
      entry: { event: 'never-reported' },
      steps: [
        {
          id: 'ab',
          type: 'split',
          paths: [
            { name: 'a', percent: 30, next: 'exit' },
            { name: 'b', percent: 70, next: 'exit' },
          ],
        },
      ],
    });
    const now = new Date();
    const seeded = Array.from({ length: 1000 }, (_, index) => ({
      _id: `${split}:device:split-${index}:1`,
      projectId: project.projectId,
      journeyId: split,
      version: 1,
      subjectType: 'device',
      subjectId: `split-${index}`,
      visit: 1,
      entryEvent: { type: 'never-reported', data: {} },
      entryEventId: `seed-${index}`,
      enteredAt: now,
      state: 'due',
      at: 'ab',
      seq: 0,
      dueAt: now,
      passed: [],
    }));
    await models().JourneyTraveller.insertMany(seeded);
    const done = await waitFor(
      () => models().JourneyTraveller.find({ journeyId: split, state: 'done' }, { passed: 1 }).lean(),
      (list) => list.length === 1000,
      100_000,
    );
    const a = done.filter((traveller) => traveller.passed[0]!.outcome.path === 'a').length;
    expect(a).toBeGreaterThan(240);
    expect(a).toBeLessThan(360);
    expect(done.every((traveller) => traveller.passed.length === 1)).toBe(true);
  });

  it('sets tags on a device and on every device of a user', async () => {
    await journeys.create({
      name: 'Tagger',
      entry: { event: 'g-done' },
      steps: [{ id: 'mark', type: 'setTags', tags: { onboarded: 'yes', tier: null } }],
    });
    await journeys.report([
      device('s-vip', 'g-done'),
      { type: 'g-done', subjectType: 'user', subjectId: 'tagged-user' },
    ]);
    await eventually(async () => {
      const devices = await models()
        .Device.find({ deviceId: { $in: ['s-vip', 's-tags-a', 's-tags-b'] } })
        .lean();
      expect(devices.map((one) => one.tags)).toEqual([
        { onboarded: 'yes' },
        { onboarded: 'yes' },
        { onboarded: 'yes' },
      ]);
    });
  });

  it('takes a traveller out at once on an exit rule during a wait, only when sameAs matches', async () => {
    const id = await journeys.create({
      name: 'Abandoned',
      entry: { event: 'x-cart' },
      exit: [{ event: 'x-bought', sameAs: ['cartId'] }],
      steps: [{ id: 'hold', type: 'wait', seconds: 600 }, push('remind', 'Come back')],
    });
    await journeys.report([device('s-exit', 'x-cart', { cartId: 'c1' }), device('s-stay', 'x-cart', { cartId: 'c2' })]);
    await waitFor(
      () => models().JourneyTraveller.countDocuments({ journeyId: id, at: 'remind' }),
      (count) => count === 2,
    );
    // One ingest job judges them in order: once s-exit has left, s-stay's event was judged, and did not take it out.
    await journeys.report([
      device('s-stay', 'x-bought', { cartId: 'other' }),
      device('s-exit', 'x-bought', { cartId: 'c1' }),
    ]);
    await waitFor(
      async () => (await journeys.visits(id, 'device', 's-exit'))[0].state,
      (state) => state === 'left',
    );
    await waitsOver(models(), [id]);
    await waitFor(
      async () => bodies('s-tok-stay'),
      (list) => list.includes('Come back'),
    );
    expect(bodies('s-tok-exit')).toEqual([]);
    const [visit] = await journeys.visits(id, 'device', 's-exit');
    expect(visit).toMatchObject({ state: 'left', leftBecause: 'exit_rule' });
    expect(visit.passed.map((step: { stepId: string }) => step.stepId)).toEqual(['hold']);
    await journeys.statsBecome(id, { entered: 2, exited: 1 });
  });

  it('re-enters never, or after exit, as reentry says', async () => {
    const never = await journeys.create({
      name: 'Once',
      entry: { event: 'r-go' },
      reentry: 'never',
      steps: [push('p', 'once')],
    });
    const again = await journeys.create({ name: 'Again', entry: { event: 'r-go' }, steps: [push('p', 'again')] });
    await journeys.report([device('s-again', 'r-go')]);
    await waitFor(
      async () => bodies('s-tok-again'),
      (list) => list.length === 2,
    );
    await waitFor(
      () => models().JourneyTraveller.countDocuments({ journeyId: { $in: [never, again] }, state: 'done' }),
      (count) => count === 2,
    );
    await journeys.report([device('s-again', 'r-go')]);
    await waitFor(
      async () => bodies('s-tok-again'),
      (list) => list.length === 3,
    );
    expect(bodies('s-tok-again').sort()).toEqual(['again', 'again', 'once']);
    expect(await journeys.visits(never, 'device', 's-again')).toHaveLength(1);
  });

  it('a PUT makes a version: a waiting traveller finishes on its own, a new entry takes the new one; pause holds, resume goes on', async () => {
    const wait = { id: 'w', type: 'wait', seconds: 600 };
    const definition = { name: 'Versioned', entry: { event: 'v-go' }, steps: [wait, push('p', 'v1')] };
    const id = await journeys.create(definition);
    // Its traveller's wait ends with the held one's: the step runner's pass that runs it passed the held one over.
    const clock = await journeys.create({
      name: 'Clock',
      entry: { event: 'v-clock' },
      steps: [wait, push('p', 'tick')],
    });
    await journeys.report([device('s-version', 'v-go'), device('s-clock', 'v-clock')]);
    await waitFor(
      () => models().JourneyTraveller.countDocuments({ journeyId: { $in: [id, clock] }, at: 'p' }),
      (count) => count === 2,
    );
    const paused = await journeys.request('PUT', `/${id}`, {
      ...definition,
      status: 'paused',
      steps: [wait, push('p', 'v2')],
    });
    expect(paused.body.data).toMatchObject({ version: 2, status: 'paused' });
    await waitsOver(models(), [id, clock]);
    await waitFor(
      async () => bodies('s-tok-clock'),
      (list) => list.length === 1,
    );
    const [held] = await journeys.visits(id, 'device', 's-version');
    expect(held).toMatchObject({ state: 'paused', at: 'w' });
    expect(held.passed.map((step: { stepId: string }) => step.stepId)).toEqual(['w']);
    expect(bodies('s-tok-version')).toEqual([]);
    const resumed = await journeys.request('PUT', `/${id}`, {
      ...definition,
      steps: [{ ...wait, seconds: 1 }, push('p', 'v3')],
    });
    expect(resumed.body.data).toMatchObject({ version: 3, status: 'active' });
    await waitFor(
      async () => bodies('s-tok-version'),
      (list) => list.length === 1,
    );
    expect(bodies('s-tok-version')).toEqual(['v1']);
    await journeys.report([device('s-version', 'v-go')]);
    await waitFor(
      async () => bodies('s-tok-version'),
      (list) => list.length === 2,
    );
    expect(bodies('s-tok-version')).toEqual(['v1', 'v3']);
  });
});
