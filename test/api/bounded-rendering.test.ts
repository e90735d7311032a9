import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RenderPool } from '../../src/rendering/render-pool.ts';
import { wallLimitFactor } from '../../src/rendering/render-watchdog.ts';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

/**
 * The hostile probe's finding: one output whose property path has thousands of segments, over a range, runs for range
 * size × path length in one liquidjs step, which its time limit never interrupts. Written out, the static limits refuse
 * it before anything renders; computed as it renders, it runs in a render thread that is stopped at the bound, while
 * the process goes on serving every other project at once.
 */
/**
 * The bound is the render thread's processor time, and the other project's push must arrive before the hostile
 * request is answered: an order, not a time. Serving it (a health check, a send accepted, rendered and pushed) costs
 * the threads and servers on its path a small part of the bound in processor time, and a loaded machine shares its
 * cores among those threads as it does with the render thread, so the hostile render still runs when the push arrives
 * however loaded the machine: the margin is a ratio of processor times, not the machine's speed. A render thread the
 * machine starves is still stopped by the clock, at `wallLimitFactor` times the bound.
 */
const boundMs = 2_000;
/** The most a hostile render may take by the clock on a starved machine, and the answer's way back on one. */
const answeredWithinMs = wallLimitFactor * boundMs + 5_000;
/**
 * A render on the event loop would hold a health check for at least the bound by the clock (a thread cannot use more
 * processor time than passes): a free loop answers in a small part of it, even on a machine loaded many times over.
 */
const freeLoopWithinMs = boundMs / 4;
const {
  harness,
  projects: { hostile, other },
} = useDeliveryHarness({
  configOverrides: { renderTimeoutMs: boundMs },
  projects: { hostile: 'team', other: 'team' },
});

const path = (segments: number) => Array.from({ length: segments }, () => 'a').join('.');
/** The probe's reproduction as it was posted, at the scale that took liquidjs 2.4 s. */
const writtenOut = `{{ (1..4000) | has: "${path(2000)}" }}`;
/** A path of 2,000 segments over 1,000,000 items from the send's data: about 12 minutes for liquidjs alone. */
const fromData = { body: '{{ (1..data.items) | has: data.path }}', data: { items: 1_000_000, path: path(2000) } };
/**
 * A path of 8,000 segments joined from a range, over 32,000 items concatenated from ranges: minutes for liquidjs
 * alone, with no data. liquidjs checks its own 50 ms limit before each step of a template, and a render it ends is
 * taken for a device's failure, not refused: so the costly step is the second, behind one that takes a fraction of a
 * millisecond, and no machine is slow enough to reach that limit first.
 */
const fromJoined = `{% assign p = (1..1000) | join: ".a.a.a.a.a.a.a.a" %}{{ (1..1000)${' | concat: (1..1000)'.repeat(31)} | has: p }}`;
/** A device's own tags drive it: 1,000,000 items × 512 segments, about 3 minutes for liquidjs alone. */
const fromTags = '{{ (1..device.tags.items) | has: device.tags.path }} for you';

const projectPath = (project: typeof hostile, suffix: string) => `/v1/projects/${project.projectId}${suffix}`;
const post = (project: typeof hostile, suffix: string, body: unknown) =>
  harness.ingress.request('POST', projectPath(project, suffix), { key: project.apiKey, body });
const bodiesTo = (token: string) =>
  harness.sandbox
    .deliveries(token)
    .map((push: any) => push.payload.notification?.body ?? push.payload.aps?.alert?.body);

beforeAll(async () => {
  await registerDevices(harness.ingress, other, [{ id: 'bystander', platform: 'android', token: 'bystander-token' }]);
  await registerDevices(harness.ingress, hostile, [
    { id: 'a-modest', platform: 'android', token: 'modest-token', tags: { items: 3, path: 'a' } },
    { id: 'b-costly', platform: 'android', token: 'costly-token', tags: { items: 1_000_000, path: path(512) } },
  ]);
  // Both processes' render threads start at their first render; that start is not what these tests time.
  expect((await post(other, '/notifications/preview', { body: 'warm-up' })).status).toBe(200);
  await waitUntilCompleted(
    harness.ingress,
    other,
    await sendNotification(harness.ingress, other, { targetType: 'device', targetIds: ['bystander'], body: 'warm-up' }),
  );
});

/**
 * Starts the hostile request and, once a thread of `renderer` renders it, serves another project: its /healthz answers
 * within `freeLoopWithinMs` (the event loop is free), and a send to its device is accepted, rendered and pushed before
 * the hostile request is answered (it waits behind nothing). Answers the hostile request's outcome and how long it took
 * from its render's start.
 */
async function whileItRenders<T>(renderer: RenderPool, hostileRequest: () => Promise<T>) {
  let settled = false;
  const outcome = hostileRequest().finally(() => {
    settled = true;
  });
  await eventually(() => expect(renderer.rendering).toBeGreaterThan(0), answeredWithinMs, 5);
  // From the render's start: what comes before it (a send's fan-out and queues) is not the render's to bound.
  const started = Date.now();

  const healthStarted = Date.now();
  expect((await harness.ingress.request('GET', '/healthz')).status).toBe(200);
  expect(Date.now() - healthStarted).toBeLessThan(freeLoopWithinMs);
  const body = `bystander ${Date.now()}`;
  await sendNotification(harness.ingress, other, { targetType: 'device', targetIds: ['bystander'], body });
  await eventually(() => expect(settled || bodiesTo('bystander-token').includes(body)).toBe(true), answeredWithinMs, 5);
  expect(settled, 'the hostile render still runs once the other project was served').toBe(false);
  expect(bodiesTo('bystander-token')).toContain(body);

  const result = await outcome;
  return { result, elapsedMs: Date.now() - started };
}

function expectRefused(response: { status: number; body: any }, path: string, message: RegExp): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('invalid_request');
  expect(response.body.error.details).toContainEqual({ path, message: expect.stringMatching(message) });
}

describe('rendering bounded by construction', { timeout: 3 * answeredWithinMs }, () => {
  it('refuses the reproduction as written with a 400 naming the field before anything renders: send, template, journey, preview', async () => {
    const limits = /range of 4000 numbers.*|property path of 2000 segments/;
    const renders = vi.spyOn(harness.ingress.context.renderer, 'renderEach');
    onTestFinished(() => renders.mockRestore());
    expectRefused(
      await post(hostile, '/notifications', { targetType: 'device', targetIds: ['a-modest'], body: writtenOut }),
      '/body',
      limits,
    );
    expectRefused(await post(hostile, '/templates', { name: 'probe', body: writtenOut }), '/body', limits);
    expectRefused(
      await post(hostile, '/journeys', { name: 'probe', trigger: { event: 'probe' }, body: writtenOut }),
      '/body',
      limits,
    );
    expectRefused(await post(hostile, '/notifications/preview', { body: writtenOut }), '/body', limits);
    expect(renders).not.toHaveBeenCalled();
  });

  it('answers a preview whose render runs for minutes with a 400 at the bound, serving other projects meanwhile', async () => {
    const { result, elapsedMs } = await whileItRenders(harness.ingress.context.renderer, () =>
      post(hostile, '/notifications/preview', fromData),
    );
    expectRefused(result, '/body', new RegExp(`^render_timeout: the body took longer than ${boundMs} ms`));
    expect(elapsedMs).toBeLessThan(answeredWithinMs);
  });

  it('refuses a send whose render runs for minutes with its data, at the bound, serving other projects meanwhile', async () => {
    const { result, elapsedMs } = await whileItRenders(harness.ingress.context.renderer, () =>
      post(hostile, '/notifications', { targetType: 'device', targetIds: ['a-modest'], ...fromData }),
    );
    expectRefused(result, '/body', /render_timeout/);
    expect(elapsedMs).toBeLessThan(answeredWithinMs);
    expect(await harness.ingress.context.models.Notification.countDocuments({ projectId: hostile.projectId })).toBe(0);
  });

  it('refuses a send whose localized body or button text runs for minutes, naming each (CONTRACTS §14)', async () => {
    const answer = await post(hostile, '/notifications', {
      targetType: 'device',
      targetIds: ['a-modest'],
      body: 'fine',
      data: fromData.data,
      localizations: { ko: { body: fromData.body } },
      buttons: [{ id: 'b', text: fromData.body }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { path: '/localizations/ko/body', message: expect.stringMatching(/render_timeout/) },
      { path: '/buttons/0/text', message: expect.stringMatching(/render_timeout/) },
    ]);
    expect(await harness.ingress.context.models.Notification.countDocuments({ projectId: hostile.projectId })).toBe(0);
  });

  it('refuses a template and a journey whose render runs for minutes, at the bound, serving other projects meanwhile', async () => {
    const template = await whileItRenders(harness.ingress.context.renderer, () =>
      post(hostile, '/templates', { name: 'costly', body: fromJoined }),
    );
    expectRefused(template.result, '/body', /render_timeout/);
    expect(template.elapsedMs).toBeLessThan(answeredWithinMs);

    const journey = await whileItRenders(harness.ingress.context.renderer, () =>
      post(hostile, '/journeys', { name: 'costly', trigger: { event: 'probe' }, body: 'ok', title: fromJoined }),
    );
    expectRefused(journey.result, '/title', /render_timeout/);
    expect(journey.elapsedMs).toBeLessThan(answeredWithinMs);
    expect(await harness.ingress.context.models.Template.countDocuments({ projectId: hostile.projectId })).toBe(0);
    expect(await harness.ingress.context.models.Journey.countDocuments({ projectId: hostile.projectId })).toBe(0);
  });

  it('fails only the device whose render ran past the bound with render_timeout, serving other projects meanwhile; a normal send is delivered after', async () => {
    const warn = vi.spyOn(harness.workers.context.log, 'warn');
    onTestFinished(() => warn.mockRestore());
    const { result: id, elapsedMs } = await whileItRenders(harness.workers.context.renderer, async () => {
      const id = await sendNotification(harness.ingress, hostile, {
        targetType: 'device',
        targetIds: ['a-modest', 'b-costly'],
        body: fromTags,
      });
      await waitUntilCompleted(harness.ingress, hostile, id, 2 * answeredWithinMs);
      return id;
    });
    expect(elapsedMs).toBeLessThan(answeredWithinMs + 1_000);
    const notification = await waitUntilCompleted(harness.ingress, hostile, id);
    expect(notification.stats).toMatchObject({ targeted: 2, sent: 1, failed: 1 });
    expect(bodiesTo('modest-token')).toEqual(['false for you']);
    expect(bodiesTo('costly-token')).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({
        notificationId: id,
        failed: 1,
        devices: 2,
        reason: expect.stringMatching(/^render_timeout/),
      }),
      'the message could not be rendered',
    );

    const normal = await sendNotification(harness.ingress, hostile, {
      targetType: 'device',
      targetIds: ['a-modest', 'b-costly'],
      body: 'all is well',
    });
    expect((await waitUntilCompleted(harness.ingress, hostile, normal)).stats).toMatchObject({ sent: 2, failed: 0 });
    expect(bodiesTo('costly-token')).toEqual(['all is well']);
  });

  it("answers a device's in-app messages at the bound, leaving out the one whose render runs for minutes, serving other projects meanwhile", async () => {
    const message = {
      status: 'active',
      layout: 'banner',
      buttons: [],
      trigger: { event: 'probe' },
      frequency: 'always',
    };
    for (const [name, body, priority] of [
      ['costly', fromTags, 2],
      ['greeting', 'You have {{ device.tags.items }} items', 1],
    ] as const)
      expect((await post(hostile, '/in-app-messages', { ...message, name, body, priority })).status).toBe(200);
    const fetchFor = (deviceId: string) =>
      harness.ingress.request('GET', `/v1/sdk/projects/${hostile.projectId}/devices/${deviceId}/in-app-messages`, {
        key: hostile.clientKey,
      });

    const { result, elapsedMs } = await whileItRenders(harness.ingress.context.renderer, () => fetchFor('b-costly'));
    expect(result.status).toBe(200);
    expect(result.body.data.map((shown: { body: string }) => shown.body)).toEqual(['You have 1000000 items']);
    expect(elapsedMs).toBeLessThan(answeredWithinMs);
    const modest = await fetchFor('a-modest');
    expect(modest.body.data.map((shown: { body: string }) => shown.body)).toEqual([
      'false for you',
      'You have 3 items',
    ]);
  });
});
