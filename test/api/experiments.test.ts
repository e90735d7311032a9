import { describe, expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { decideExperiment } from '../../src/experiments/decide-experiment.ts';
import { testedVariant } from '../../src/experiments/experiment-groups.ts';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { pickWinner } from '../support/experiments.ts';
import { enqueueDecision } from '../../src/queues/send.ts';
import { insertUserDevices, patchSettings } from '../support/timing.ts';

const { harness } = useDeliveryHarness({ queues: ['send', 'deliver'] });

const variantsNamed = (...names: string[]) => names.map((name) => ({ name, title: `t-${name}`, body: `b-${name}` }));

/** A fresh project with `count` Android devices of 50 users, each device's id its token, `${projectId}-<n>`. */
async function projectWithDevices(count: number): Promise<{ project: CreatedProject; tokens: string[] }> {
  const project = await harness.ingress.createProject('team');
  const userIds = Array.from({ length: 50 }, (_, index) => `u${index}`);
  const tokens = await insertUserDevices(harness.ingress, project, `${project.projectId}-`, count, { userIds });
  const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
    key: project.apiKey,
    body: { name: 'everyone', match: 'all', conditions: [] },
  });
  expect(segment.status, JSON.stringify(segment.body)).toBe(200);
  return { project: { ...project, segmentId: segment.body.data.id } as CreatedProject, tokens };
}

const bodiesOf = (tokens: string[]) =>
  tokens.map((token) =>
    harness.sandbox.deliveries(token).map((delivery) => (delivery.payload as any).notification.body),
  );

async function sendExperiment(project: CreatedProject, variants: object[], experiment: object): Promise<string> {
  return sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [(project as CreatedProject & { segmentId: string }).segmentId],
    variants,
    experiment,
  });
}

const pick = (project: CreatedProject, id: string, variant: string) =>
  pickWinner(harness.ingress, project, id, variant);

/** Every device got one push, in the test or from the winner. */
const expectOnePushEach = (tokens: string[]) =>
  expect(bodiesOf(tokens).every((received) => received.length === 1)).toBe(true);

/** Each device that got `body` reports a click on the push. */
async function clickEvery(project: CreatedProject, tokens: string[], id: string, body: string) {
  for (const [index, received] of bodiesOf(tokens).entries()) {
    if (received[0] !== body) continue;
    const click = await harness.ingress.request(
      'POST',
      `/v1/sdk/projects/${project.projectId}/devices/${tokens[index]}/events`,
      {
        key: project.clientKey,
        body: { type: '@clicked', data: { notificationId: id } },
      },
    );
    expect(click.status).toBe(200);
  }
}

/** Waits until the test phase has delivered (all tested devices have an outcome). */
async function testDelivered(project: CreatedProject, id: string) {
  return eventually(async () => {
    const view = await readNotification(harness.ingress, project, id);
    expect(view.stats.targeted).toBeGreaterThan(0);
    expect(view.stats.sent).toBe(view.stats.targeted);
    return view;
  });
}

/**
 * An automatic experiment of "plain" and "bold" on half of `count` devices, tested: every device that got "bold"
 * clicked, none of "plain".
 */
async function boldClickedInTest(count: number, decideAfterMinutes: number) {
  const { project, tokens } = await projectWithDevices(count);
  const id = await sendExperiment(project, variantsNamed('plain', 'bold'), {
    testPercent: 50,
    metric: 'clicked',
    decideAfterMinutes,
    winner: 'auto',
  });
  await testDelivered(project, id);
  await clickEvery(project, tokens, id, 'b-bold');
  return { project, tokens, id };
}

describe('experiments (CONTRACTS §19)', () => {
  it('split 10 variants evenly over the whole audience, one push each, and report each', async () => {
    const { project, tokens } = await projectWithDevices(200);
    const names = Array.from({ length: 10 }, (_, index) => `v${index}`);
    const id = await sendExperiment(project, variantsNamed(...names), {
      metric: 'clicked',
      decideAfterMinutes: 60,
      winner: 'manual',
    });
    const view = await waitUntilCompleted(harness.ingress, project, id);
    const bodies = bodiesOf(tokens);
    expect(bodies.every((received) => received.length === 1)).toBe(true);
    // Each device gets the variant its hash names (how evenly the hash cuts is the unit test's), and every variant
    // some devices: a variant none of 200 devices falls in has a chance of 10 × 0.9^200, under one in 10^8.
    const named = tokens.map((token) => `b-${names[testedVariant(id, token, 100, names.length)!]}`);
    expect(bodies.map(([body]) => body)).toEqual(named);
    const perVariant = names.map((name) => bodies.filter(([body]) => body === `b-${name}`).length);
    for (const count of perVariant) expect(count).toBeGreaterThan(0);
    expect(view.variants.map((variant: any) => variant.stats.sent)).toEqual(perVariant);
    expect(view.variants.map((variant: any) => variant.stats.targeted)).toEqual(perVariant);
    expect(view.experiment).toMatchObject({ status: 'testing', testPercent: 100, metric: 'clicked' });
  });

  it('test 20% of the audience, keep the rest waiting, and send them the winner picked by hand', async () => {
    const { project, tokens } = await projectWithDevices(300);
    const id = await sendExperiment(project, variantsNamed('a', 'b'), {
      testPercent: 20,
      metric: 'clicked',
      decideAfterMinutes: 60,
      winner: 'manual',
    });
    const tested = await testDelivered(project, id);
    expect(tested.status).toBe('sending');
    const afterTest = bodiesOf(tokens);
    const testedCount = afterTest.filter((received) => received.length === 1).length;
    expect(afterTest.every((received) => received.length <= 1)).toBe(true);
    expect(testedCount).toBe(tested.stats.targeted);
    expect(testedCount).toBeGreaterThan(30);
    expect(testedCount).toBeLessThan(90);
    const [a, b] = tested.variants.map((variant: any) => variant.stats.sent);
    expect(Math.min(a, b)).toBeGreaterThan(testedCount / 4);

    expect((await pick(project, id, 'nope')).status).toBe(400);
    const picked = await pick(project, id, 'b');
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body.data.experiment).toMatchObject({ winner: 'b', decidedBy: 'manual' });
    const again = await pick(project, id, 'a');
    expect(again.status).toBe(400);
    expect(again.body.error.details[0].path).toBe('/variant');

    const done = await waitUntilCompleted(harness.ingress, project, id);
    expect(done.experiment).toMatchObject({ status: 'completed', winner: 'b', decidedBy: 'manual' });
    expect(done.stats).toMatchObject({ targeted: 300, sent: 300 });
    const all = bodiesOf(tokens);
    expect(all.every((received) => received.length === 1)).toBe(true);
    const waited = all.filter((_, index) => afterTest[index]!.length === 0);
    expect(waited.every(([body]) => body === 'b-b')).toBe(true);
  });

  it('decide automatically for the variant with a clearly better rate, by the chi-squared test', async () => {
    const { project, tokens, id } = await boldClickedInTest(120, 30);
    const decision = await harness.workers.context.queues.send.getJob(`${id}-decide`);
    expect(decision?.opts.delay).toBeGreaterThan(29 * 60_000);
    // The decision job's own code, run now rather than in 30 minutes.
    expect(await decideExperiment(harness.workers.context, id)).toBe(true);
    expect(await decideExperiment(harness.workers.context, id)).toBe(false);
    const done = await waitUntilCompleted(harness.ingress, project, id);
    expect(done.experiment).toMatchObject({ status: 'completed', winner: 'bold', decidedBy: 'auto' });
    expect(done.experiment.pValue).toBeLessThan(0.05);
    expectOnePushEach(tokens);
  });

  it('decide by the delayed decision job itself once it is due, and send the winner with no one acting', async () => {
    const { project, tokens, id } = await boldClickedInTest(100, 1);
    // The job the send queued, due a minute after the send: its minute made to pass by promoting it, as BullMQ
    // does when its delay runs out; the send worker then runs it as it would.
    const decision = (await harness.workers.context.queues.send.getJob(`${id}-decide`))!;
    expect(await decision.getState()).toBe('delayed');
    // Due a minute after the send was made, however late the send worker took it up.
    const sent = await harness.workers.context.models.Notification.findById(id, { createdAt: 1 }).lean();
    expect(Math.abs(decision.timestamp + decision.opts.delay! - (sent!.createdAt.getTime() + 60_000))).toBeLessThan(
      1000,
    );
    await decision.promote();
    const done = await waitUntilCompleted(harness.ingress, project, id);
    expect(done.experiment).toMatchObject({ status: 'completed', winner: 'bold', decidedBy: 'auto' });
    expect(done.stats).toMatchObject({ targeted: 100, sent: 100 });
    const all = bodiesOf(tokens);
    expect(all.every((received) => received.length === 1)).toBe(true);
    expect(all.filter(([body]) => body === 'b-bold').length).toBeGreaterThan(50);
  });

  it("send the winner to the waiting devices with the send's options, as the test's variants went", async () => {
    const { project, tokens } = await projectWithDevices(60);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'segment',
      targetIds: [(project as CreatedProject & { segmentId: string }).segmentId],
      variants: variantsNamed('a', 'b'),
      experiment: { testPercent: 50, metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
      ttl: 600,
      priority: 'normal',
      collapseId: 'exp-1',
    });
    await testDelivered(project, id);
    expect((await pick(project, id, 'a')).status).toBe(200);
    await waitUntilCompleted(harness.ingress, project, id);
    const pushes = tokens.map((token) => harness.sandbox.deliveries(token));
    expect(pushes.every((received) => received.length === 1)).toBe(true);
    for (const [push] of pushes)
      expect((push!.payload as any).android).toMatchObject({ ttl: '600s', priority: 'normal', collapse_key: 'exp-1' });
  });

  it('decide once however often and however concurrently the decision runs, its finished jobs cleared: one winner fan-out, one push a device', async () => {
    const { project, tokens, id } = await boldClickedInTest(100, 30);
    const { context } = harness.workers;
    // Two workers' decision jobs and a marketer's pick, at once: one of them decides.
    const decided = await Promise.all([
      decideExperiment(context, id),
      decideExperiment(context, id, 'plain'),
      decideExperiment(context, id),
    ]);
    expect(decided.filter(Boolean)).toHaveLength(1);
    const done = await waitUntilCompleted(harness.ingress, project, id);
    expect(done.stats).toMatchObject({ targeted: 100, sent: 100 });
    // Its finished jobs cleared, as the queue does a day after they end (removeOnComplete), the decision runs again:
    // twice at once in this process, and once as the job a restarted fan-out queues, run by the send worker.
    // BullMQ marks the winner's fan-out completed after its processor returns: its pushes may all be counted before.
    const winner = (await context.queues.send.getJob(`${id}-winner`))!;
    await eventually(async () => expect(await winner.getState()).toBe('completed'));
    await winner.remove();
    await (await context.queues.send.getJob(`${id}-decide`))?.remove();
    expect(await Promise.all([decideExperiment(context, id), decideExperiment(context, id)])).toEqual([false, false]);
    await enqueueDecision(context, { _id: id, projectId: project.projectId }, Date.now());
    await eventually(async () => expect(await context.queues.send.getJobState(`${id}-decide`)).toBe('completed'));
    expect(await context.queues.send.getJob(`${id}-winner`)).toBeUndefined();
    const after = await readNotification(harness.ingress, project, id);
    expect(after.experiment).toMatchObject({ status: 'completed', decidedAt: done.experiment.decidedAt });
    expect(after.stats).toMatchObject({ targeted: 100, sent: 100 });
    expectOnePushEach(tokens);
  });

  it("send a winner picked after the test's finished send job was cleared", async () => {
    const { project, tokens } = await projectWithDevices(60);
    const id = await sendExperiment(project, variantsNamed('a', 'b'), {
      testPercent: 40,
      metric: 'clicked',
      decideAfterMinutes: 4320,
      winner: 'manual',
    });
    await testDelivered(project, id);
    const { send } = harness.workers.context.queues;
    // The queue keeps a finished job a day; a decision may come three days after the send.
    await eventually(async () => expect(await send.getJobState(id)).toBe('completed'));
    await (await send.getJob(id))!.remove();
    expect((await pick(project, id, 'b')).status).toBe(200);
    const done = await waitUntilCompleted(harness.ingress, project, id);
    expect(done.experiment).toMatchObject({ status: 'completed', winner: 'b' });
    expect(done.stats).toMatchObject({ targeted: 60, sent: 60 });
    expectOnePushEach(tokens);
  });

  it.each([
    ['sendBest', 1],
    ['sendNone', 0],
  ] as const)('with no significant difference, %s', async (ifNoWinner, pushesToWaiting) => {
    const { project, tokens } = await projectWithDevices(60);
    const id = await sendExperiment(project, variantsNamed('x', 'y'), {
      testPercent: 30,
      metric: 'clicked',
      decideAfterMinutes: 5,
      winner: 'auto',
      ifNoWinner,
    });
    await testDelivered(project, id);
    const afterTest = bodiesOf(tokens);
    await decideExperiment(harness.workers.context, id);
    const done = await waitUntilCompleted(harness.ingress, project, id);
    expect(done.experiment.pValue).toBe(1);
    expect(done.experiment.status).toBe('completed');
    expect(done.experiment.winner === undefined).toBe(ifNoWinner === 'sendNone');
    const waited = bodiesOf(tokens).filter((_, index) => afterTest[index]!.length === 0);
    expect(waited.length).toBeGreaterThan(0);
    for (const received of waited) expect(received).toHaveLength(pushesToWaiting);
  });

  it('answer each bad rule with a 400 naming the field, and send nothing', async () => {
    const { project, tokens } = await projectWithDevices(3);
    await patchSettings(harness.ingress, project, { conversions: [{ event: 'purchase' }] });
    const segmentId = (project as CreatedProject & { segmentId: string }).segmentId;
    const experiment = { metric: 'clicked', decideAfterMinutes: 5, winner: 'manual' };
    const base = { targetType: 'segment', targetIds: [segmentId] };
    const cases: Array<[object, string]> = [
      [{ ...base, variants: variantsNamed('a', 'b') }, '/experiment'],
      [{ ...base, body: 'x', experiment }, '/variants'],
      [{ ...base, variants: variantsNamed('a'), experiment }, '/variants'],
      [{ ...base, variants: variantsNamed(...'abcdefghijk'.split('')), experiment }, '/variants'],
      [{ ...base, variants: variantsNamed('a', 'a'), experiment }, '/variants/1/name'],
      [
        {
          ...base,
          variants: [
            { name: 'a', body: '{{ x' },
            { name: 'b', body: 'ok' },
          ],
          experiment,
        },
        '/variants/0/body',
      ],
      [
        {
          ...base,
          variants: [
            { name: '', body: 'x' },
            { name: 'b', body: 'ok' },
          ],
          experiment,
        },
        '/variants/0/name',
      ],
      [{ ...base, body: 'top', variants: variantsNamed('a', 'b'), experiment }, '/body'],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, testPercent: 0 } },
        '/experiment/testPercent',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, decideAfterMinutes: 4321 } },
        '/experiment/decideAfterMinutes',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, winner: 'first' } },
        '/experiment/winner',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, ifNoWinner: 'x' } },
        '/experiment/ifNoWinner',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, metric: 'opened' } },
        '/experiment/metric',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, metric: 'conversion:signup' } },
        '/experiment/metric',
      ],
      [{ ...base, variants: variantsNamed('a', 'b'), experiment, silent: true }, '/silent'],
      [{ ...base, variants: { name: 'a' }, experiment }, '/variants'],
      [{ ...base, variants: [{ name: 'a' }, { name: 'b', body: 'ok' }], experiment }, '/variants/0/body'],
      [
        { ...base, variants: [{ name: 'x'.repeat(33), body: 'x' }, ...variantsNamed('b')], experiment },
        '/variants/0/name',
      ],
      [
        { ...base, variants: [{ name: 'a', body: 'x', colour: 1 }, ...variantsNamed('b')], experiment },
        '/variants/0/colour',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, testPercent: 101 } },
        '/experiment/testPercent',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, decideAfterMinutes: 0 } },
        '/experiment/decideAfterMinutes',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, decideAfterMinutes: 1.5 } },
        '/experiment/decideAfterMinutes',
      ],
      [
        { ...base, variants: variantsNamed('a', 'b'), experiment: { winner: 'manual', decideAfterMinutes: 5 } },
        '/experiment/metric',
      ],
      [{ ...base, variants: variantsNamed('a', 'b'), experiment: { ...experiment, seed: 1 } }, '/experiment/seed'],
    ];
    for (const [body, field] of cases) {
      const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
        key: project.apiKey,
        body,
      });
      expect(answer.status, `${field}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
    }
    const listed = await harness.ingress.request('GET', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
    });
    expect(listed.body.data).toEqual([]);
    expect(bodiesOf(tokens).flat()).toEqual([]);
    const fine = await sendExperiment(project, variantsNamed('a', 'b'), {
      ...experiment,
      metric: 'conversion:purchase',
    });
    expect((await pick(project, fine, 'c')).status).toBe(400);
    const plain = await sendNotification(harness.ingress, project, { ...base, body: 'plain' });
    const badPicks: Array<[string, object, number, string | null]> = [
      [plain, { variant: 'a' }, 400, '/variant'],
      [fine, {}, 400, '/variant'],
      [fine, { variant: 'a', extra: 1 }, 400, '/extra'],
      ['no-such-notification', { variant: 'a' }, 404, null],
    ];
    for (const [notificationId, body, status, field] of badPicks) {
      const answer = await harness.ingress.request(
        'POST',
        `/v1/projects/${project.projectId}/notifications/${notificationId}/winner`,
        { key: project.apiKey, body },
      );
      expect(answer.status, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`).toBe(status);
      if (field) expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
    }
    const other = await harness.ingress.createProject('team');
    const foreign = await harness.ingress.request(
      'POST',
      `/v1/projects/${other.projectId}/notifications/${fine}/winner`,
      {
        key: other.apiKey,
        body: { variant: 'a' },
      },
    );
    expect(foreign.status).toBe(404);
    expect((await readNotification(harness.ingress, project, fine)).experiment.status).toBe('testing');
  });
});
