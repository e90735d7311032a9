import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDevices } from '../support/delivery-harness.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { deviceEvent, listening, pushStep, useJourneyHarness } from '../support/journeys.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const { harness, project, journeys, bodies } = useJourneyHarness(['webhook']);
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());
const models = () => harness.ingress.context.models;
const push = pushStep;
const device = deviceEvent;
const minute = 60_000;

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [
    { id: 'p-buyer', platform: 'android', token: 'p-tok-buyer' },
    { id: 'p-idle', platform: 'android', token: 'p-tok-idle' },
    { id: 'p-gold', platform: 'android', token: 'p-tok-gold', tags: { tier: 'gold' } },
    { id: 'p-plain', platform: 'android', token: 'p-tok-plain', tags: { tier: 'plain' } },
    { id: 'p-back', platform: 'android', token: 'p-tok-back' },
    { id: 'p-hook', platform: 'android', token: 'p-tok-hook' },
  ]);
  const zoned = await harness.ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/p-india`, {
    key: project.clientKey,
    body: { platform: 'android', pushToken: 'p-tok-india', timezone: 'Asia/Kolkata' },
  });
  expect(zoned.status).toBe(200);
  // Before any event: a worker trusts what it read of the project's endpoints for a few seconds.
  const endpoint = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url: `${receiver.url}/${project.projectId}`, events: ['journey.step'] },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
});

describe('journey paths on real services (CONTRACTS §18)', () => {
  it('branches on an event condition and on a click of an earlier push step', async () => {
    const id = await journeys.create({
      name: 'Follow up',
      entry: { event: 'p-enter' },
      steps: [
        push('ask', 'Ask'),
        {
          id: 'back',
          type: 'waitForEvent',
          event: 'p-back',
          timeoutSeconds: 600,
          onEvent: 'bought',
          onTimeout: 'exit',
        },
        {
          id: 'bought',
          type: 'branch',
          match: 'all',
          conditions: [{ event: 'p-bought', withinDays: 1, count: { op: 'gte', value: 1 } }],
          onTrue: 'yes-bought',
          onFalse: 'no-bought',
        },
        push('yes-bought', 'bought', { next: 'clicked' }),
        push('no-bought', 'did not buy', { next: 'clicked' }),
        { id: 'clicked', type: 'branch', match: 'any', conditions: [{ clicked: 'ask' }], onTrue: 'yes', onFalse: 'no' },
        push('yes', 'clicked', { next: 'exit' }),
        push('no', 'did not click'),
      ],
    });
    await journeys.report([device('p-buyer', 'p-enter'), device('p-idle', 'p-enter')]);
    await waitFor(
      async () => [...bodies('p-tok-buyer'), ...bodies('p-tok-idle')],
      (list) => list.length === 2,
    );
    // The push can arrive before the step's outcome is stored on the visit.
    const [visit] = await eventually(async () => {
      const visits = await journeys.visits(id, 'device', 'p-buyer');
      expect(visits[0].passed[0]?.outcome.notificationId).toEqual(expect.any(String));
      return visits;
    });
    // A click counts once the push's delivery is recorded (CONTRACTS §6), which the step's sent count reads.
    await waitFor(
      async () => (await journeys.read(id)).stats.steps.ask.sent,
      (sent) => sent === 2,
    );
    const click = await harness.ingress.request(
      'POST',
      `/v1/sdk/projects/${project.projectId}/devices/p-buyer/events`,
      {
        key: project.clientKey,
        body: { type: '@clicked', data: { notificationId: visit.passed[0].outcome.notificationId } },
      },
    );
    expect(click.status).toBe(200);
    await listening(models(), id, 'back', ['p-buyer', 'p-idle']);
    await journeys.report([device('p-buyer', 'p-bought'), device('p-buyer', 'p-back'), device('p-idle', 'p-back')]);
    await waitFor(
      async () => [...bodies('p-tok-buyer'), ...bodies('p-tok-idle')],
      (list) => list.length === 6,
    );
    expect(bodies('p-tok-buyer').sort()).toEqual(['Ask', 'bought', 'clicked']);
    expect(bodies('p-tok-idle').sort()).toEqual(['Ask', 'did not buy', 'did not click']);
  });

  it("waits until the next such wall-clock time in the device's zone (untilLocalTime)", async () => {
    // Three hours ahead, to the minute, as a clock in Kolkata (UTC+05:30, no summer time) reads it.
    const due = Math.floor((Date.now() + 180 * minute) / minute) * minute;
    const kolkata = new Date(due + 330 * minute).toISOString().slice(11, 16);
    const id = await journeys.create({
      name: 'Morning',
      entry: { event: 'p-zone' },
      steps: [{ id: 'later', type: 'wait', untilLocalTime: kolkata }, push('then', 'Later')],
    });
    await journeys.report([device('p-india', 'p-zone')]);
    const [visit] = await eventually(async () => {
      const visits = await journeys.visits(id, 'device', 'p-india');
      // At entry it is due in `later` at once; once that step ran, it waits there until the local time.
      expect(visits[0]?.until).toBe(new Date(due).toISOString());
      return visits;
    });
    expect(visit).toMatchObject({ state: 'travelling', at: 'later' });
    expect(bodies('p-tok-india')).toEqual([]);
  });

  it('publishes a journey.step webhook event from a webhook step', async () => {
    const id = await journeys.create({
      name: 'Tell CRM',
      entry: { event: 'p-hooked' },
      steps: [{ id: 'crm', type: 'webhook' }],
    });
    await journeys.report([device('p-hook', 'p-hooked', { plan: 'pro' })]);
    const [call] = await waitFor(
      async () => receiver.ofType('journey.step'),
      (calls) => calls.length >= 1,
    );
    expect(call!.event.data).toMatchObject({
      journeyId: id,
      stepId: 'crm',
      subjectType: 'device',
      subjectId: 'p-hook',
      entryEvent: { type: 'p-hooked', data: { plan: 'pro' } },
    });
  });

  it('enters only subjects in its audience', async () => {
    const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
      key: project.apiKey,
      body: { name: 'Gold', match: 'all', conditions: [{ tag: 'tier', op: 'eq', value: 'gold' }] },
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(200);
    await journeys.create({
      name: 'Gold only',
      entry: { event: 'p-aud' },
      audience: { segmentId: segment.body.data.id },
      steps: [push('gold', 'For gold')],
    });
    // The second journey enters everyone: its push says the ingest job that judged both entries has run.
    await journeys.create({ name: 'Everyone', entry: { event: 'p-aud' }, steps: [push('all', 'For all')] });
    await journeys.report([device('p-gold', 'p-aud'), device('p-plain', 'p-aud')]);
    await waitFor(
      async () => [...bodies('p-tok-gold'), ...bodies('p-tok-plain')],
      (list) => list.length === 3,
    );
    expect(bodies('p-tok-gold').sort()).toEqual(['For all', 'For gold']);
    expect(bodies('p-tok-plain')).toEqual(['For all']);
  });

  it('re-enters a subject only afterSeconds after it left', async () => {
    const id = await journeys.create({
      name: 'Cool-down',
      entry: { event: 'p-again' },
      reentry: { afterSeconds: 600 },
      steps: [push('again', 'Again')],
    });
    await journeys.create({ name: 'Marker', entry: { event: 'p-again' }, steps: [push('mark', 'Marker')] });
    // Both visits must have ended: a subject still travelling the marker journey would not enter it again.
    const left = () => models().JourneyTraveller.countDocuments({ subjectId: 'p-back', state: 'done' });
    await journeys.report([device('p-back', 'p-again')]);
    await waitFor(left, (count) => count === 2);
    await journeys.report([device('p-back', 'p-again')]);
    await waitFor(
      async () => bodies('p-tok-back').filter((body) => body === 'Marker'),
      (list) => list.length === 2,
    );
    expect(bodies('p-tok-back').filter((body) => body === 'Again')).toHaveLength(1);
    // Ten minutes and a second pass, as the stored end of the visit says.
    await models().JourneyTraveller.updateMany(
      { journeyId: id },
      { $set: { endedAt: new Date(Date.now() - 601_000) } },
    );
    await journeys.report([device('p-back', 'p-again')]);
    await waitFor(
      async () => bodies('p-tok-back').filter((body) => body === 'Again'),
      (list) => list.length === 2,
    );
  });
});
