import { beforeAll, describe, expect, it } from 'vitest';
import { ActiveJourneys } from '../../src/journeys/active-journeys.ts';
import { travelEvents } from '../../src/journeys/travel-events.ts';
import { ProjectSettingsCache } from '../../src/projects/project-settings-cache.ts';
import { upgradeLegacyJourneys } from '../../src/journeys/upgrade-legacy-journeys.ts';
import {
  deactivateJourney,
  registerDevices,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { startTestWorkers } from '../support/workers.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { useResource } from '../support/use-resource.ts';
import { waitsOver } from '../support/journeys.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ projects: { project: 'team' } });
const ingestWorker = useResource(() => startTestWorkers(harness.config, ['event-ingest', 'journey-steps']));

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [
    { id: 'j-phone', platform: 'android', token: 'j-tok-phone', userId: 'jane' },
    { id: 'j-tablet', platform: 'ios', token: 'j-tok-tablet', userId: 'jane' },
    { id: 'j-old', platform: 'android', token: 'j-tok-old', userId: 'jane' },
    { id: 'j-other', platform: 'web', token: 'j-tok-other' },
  ]);
  await harness.ingress.context.models.Device.updateOne(
    { projectId: project.projectId, deviceId: 'j-old' },
    { $set: { isSubscribed: false } },
  );
});

const models = () => harness.ingress.context.models;
const journeysPath = (rest = '') => `/v1/projects/${project.projectId}/journeys${rest}`;
const bodies = (token: string) =>
  harness.sandbox
    .deliveries(token)
    .map((delivery) => (delivery.payload as any).notification?.body ?? (delivery.payload as any).aps?.alert?.body);

async function createJourney(body: object): Promise<string> {
  const response = await harness.ingress.request('POST', journeysPath(), { key: project.apiKey, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id;
}

async function report(events: object[]): Promise<number> {
  const postedAt = Date.now();
  const response = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/events`, {
    key: project.apiKey,
    body: { events },
  });
  expect(response.body.data.error).toEqual([]);
  return postedAt;
}

const journeySends = (journeyId: string) => models().Notification.find({ journeyId }).lean();

describe('journeys API', () => {
  it('creates, reads, lists, replaces and deletes a journey, and refuses malformed ones', async () => {
    const definition = {
      name: 'Thanks',
      trigger: { event: 'never-sent', where: [{ field: 'amount', op: 'gte', value: 10 }] },
      delaySeconds: 60,
      title: 'Hi',
      body: 'Thanks',
      active: true,
    };
    const id = await createJourney(definition);
    const read = await harness.ingress.request('GET', journeysPath(`/${id}`), { key: project.apiKey });
    // The first form is shown as steps (CONTRACTS §18).
    expect(read.body.data).toMatchObject({
      id,
      name: 'Thanks',
      status: 'active',
      entry: definition.trigger,
      reentry: 'afterExit',
      exit: [],
      version: 1,
      steps: [
        { id: 'delay', type: 'wait', seconds: 60 },
        { id: 'message', type: 'push', title: 'Hi', body: 'Thanks' },
      ],
    });
    const list = await harness.ingress.request('GET', journeysPath(), { key: project.apiKey });
    expect(list.body.data.map((journey: { id: string }) => journey.id)).toContain(id);
    const replaced = await harness.ingress.request('PUT', journeysPath(`/${id}`), {
      key: project.apiKey,
      body: { ...definition, active: false },
    });
    expect(replaced.body.data).toMatchObject({ status: 'paused', version: 2 });
    expect(
      (await harness.ingress.request('DELETE', journeysPath(`/${id}`), { key: project.apiKey })).body.data,
    ).toEqual({ id, deleted: true });
    expect((await harness.ingress.request('GET', journeysPath(`/${id}`), { key: project.apiKey })).status).toBe(404);

    const invalid = await harness.ingress.request('POST', journeysPath(), {
      key: project.apiKey,
      body: {
        name: 'x',
        trigger: { event: 'purchase', where: [{ field: 'amount', op: 'in', value: 5 }] },
        title: '{{ unclosed',
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(
      expect.arrayContaining(['/trigger/where/0/value', '/body', '/title']),
    );
    const tooLarge = await harness.ingress.request('POST', journeysPath(), {
      key: project.apiKey,
      body: { name: 'x', trigger: { event: 'purchase' }, body: '€'.repeat(1500) },
    });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error.details).toEqual([
      { path: '/body', message: expect.stringMatching(/^it takes 4500 bytes before rendering;/) },
    ]);
    // Stored before the rule: it can still be paused, and a template stored too large then cannot be sent by one.
    const paused = await harness.ingress.request('POST', journeysPath(), {
      key: project.apiKey,
      body: { name: 'x', trigger: { event: 'purchase' }, body: '€'.repeat(1500), active: false },
    });
    expect(paused.status).toBe(200);
    await models().Template.create({
      _id: 'too-large',
      projectId: project.projectId,
      name: 'old',
      body: '€'.repeat(1500),
    });
    const withTemplate = await harness.ingress.request('POST', journeysPath(), {
      key: project.apiKey,
      body: { name: 'x', trigger: { event: 'purchase' }, templateId: 'too-large' },
    });
    expect(withTemplate.status).toBe(400);
    expect(withTemplate.body.error.details).toEqual([
      {
        path: '/templateId',
        message: expect.stringMatching(/^the template's body takes 4500 bytes before rendering;/),
      },
    ]);
    const unknownTemplate = await harness.ingress.request('POST', journeysPath(), {
      key: project.apiKey,
      body: { name: 'x', trigger: { event: 'purchase' }, templateId: 'nope' },
    });
    expect(unknownTemplate.status).toBe(404);
  });
  it('pauses a journey whose template was deleted, and asks for a template that exists to make it active again', async () => {
    const template = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/templates`, {
      key: project.apiKey,
      body: { name: 'Welcome', body: 'Welcome!' },
    });
    const templateId = template.body.data.id;
    const id = await createJourney({ name: 'Welcome', trigger: { event: 'never-sent' }, templateId, active: true });
    expect(
      (
        await harness.ingress.request('DELETE', `/v1/projects/${project.projectId}/templates/${templateId}`, {
          key: project.apiKey,
        })
      ).status,
    ).toBe(200);
    await deactivateJourney(harness.ingress, project, id);
    const reactivated = await harness.ingress.request('PUT', journeysPath(`/${id}`), {
      key: project.apiKey,
      body: { name: 'Welcome', trigger: { event: 'never-sent' }, templateId, active: true },
    });
    expect(reactivated.status).toBe(404);
    expect(reactivated.body.error.message).toContain(templateId);
  });
});

describe('journeys firing on events', () => {
  it("sends once per matching event to the subject's subscribed devices, with entry_event rendered, in history and stats", async () => {
    const journeyId = await createJourney({
      name: 'Purchase thanks',
      trigger: { event: 'purchase', where: [{ field: 'amount', op: 'gte', value: 100 }] },
      title: 'Thanks for your {{ entry_event.type }}',
      body: 'Enjoy your {{ entry_event.data.productName | default: "item" }}',
    });
    await report([
      { type: 'purchase', subjectType: 'device', subjectId: 'j-other', data: { amount: 20, productName: 'Socks' } },
      { type: 'purchase', subjectType: 'device', subjectId: 'j-other', data: { amount: 150, productName: 'Shoes' } },
      { type: 'purchase', subjectType: 'user', subjectId: 'jane', data: { amount: 300 } },
    ]);
    await eventually(() => {
      expect(bodies('j-tok-other')).toEqual(['Enjoy your Shoes']);
      expect(bodies('j-tok-phone')).toEqual(['Enjoy your item']);
      expect(bodies('j-tok-tablet')).toEqual(['Enjoy your item']);
    });
    expect(harness.sandbox.deliveries('j-tok-old')).toEqual([]);
    expect((harness.sandbox.deliveries('j-tok-other')[0]!.payload as any).notification.title).toBe(
      'Thanks for your purchase',
    );

    const sends = await journeySends(journeyId);
    expect(sends).toHaveLength(2);
    const toUser = sends.find((send) => send.targetType === 'userId')!;
    const notification = await waitUntilCompleted(harness.ingress, project, toUser._id);
    expect(notification.stats).toEqual({ targeted: 2, sent: 2, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    const history = await harness.ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/devices/j-phone/notification-history`,
      { key: project.apiKey },
    );
    expect(history.body.data[0].notification).toMatchObject({
      id: toUser._id,
      body: 'Enjoy your item',
      title: 'Thanks for your purchase',
    });
  });

  it('carries its message options to the push, and a silent journey needs no body (CONTRACTS §14)', async () => {
    const options = { ttl: 120, priority: 'normal', buttons: [{ id: 'see', text: 'See {{ entry_event.type }}' }] };
    const id = await createJourney({ name: 'Options', trigger: { event: 'opted' }, body: 'With options', ...options });
    const read = await harness.ingress.request('GET', journeysPath(`/${id}`), { key: project.apiKey });
    expect(read.body.data.steps[0]).toMatchObject(options);
    const quiet = await createJourney({ name: 'Quiet', trigger: { event: 'quietly' }, silent: true });
    await report([
      { type: 'opted', subjectType: 'device', subjectId: 'j-other' },
      { type: 'quietly', subjectType: 'device', subjectId: 'j-other' },
    ]);
    const pushes = await waitFor(
      async () => harness.sandbox.deliveries('j-tok-other').map((delivery) => delivery.payload as any),
      (list) => list.some((payload) => payload.data?.buttons),
    );
    const withOptions = pushes.find((payload) => payload.data?.buttons)!;
    expect(withOptions.webpush.headers).toMatchObject({ TTL: '120', Urgency: 'normal' });
    expect(JSON.parse(withOptions.data.buttons)).toEqual([{ id: 'see', text: 'See opted' }]);
    // j-other is a browser, which cannot take a silent push: the journey's send targets nobody.
    const [quietSend] = await waitFor(
      () => journeySends(quiet),
      (sends) => sends.length === 1 && sends[0]!.status === 'completed',
    );
    expect(quietSend!.stats?.targeted).toBe(0);
    expect(pushes.every((payload) => payload.notification)).toBe(true);
  });

  it('keeps a journey the previous release stored in its one-message form working after an upgrade', async () => {
    const stored = {
      _id: 'legacy-journey',
      projectId: project.projectId,
      name: 'Stored before steps',
      trigger: { event: 'legacy-signup', where: [] },
      delaySeconds: 1,
      templateId: null,
      title: null,
      body: 'Hello from {{ entry_event.type }}',
      url: null,
      imageUrl: null,
      active: true,
      ignoreQuietHours: false,
      ignoreFrequencyCap: false,
      options: { ttl: 300 },
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    await models().Journey.collection.insertOne(stored as never);
    // What start-up runs after the indexes; twice, as two processes starting together would.
    await upgradeLegacyJourneys(harness.ingress.context);
    await upgradeLegacyJourneys(harness.ingress.context);
    const read = await harness.ingress.request('GET', journeysPath('/legacy-journey'), { key: project.apiKey });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      status: 'active',
      version: 1,
      entry: { event: 'legacy-signup', where: [] },
      steps: [
        { id: 'delay', type: 'wait', seconds: 1 },
        { id: 'message', type: 'push', body: 'Hello from {{ entry_event.type }}', ttl: 300 },
      ],
    });
    expect(read.body.data).not.toHaveProperty('trigger');
    await report([{ type: 'legacy-signup', subjectType: 'device', subjectId: 'j-other' }]);
    await waitFor(
      async () => bodies('j-tok-other'),
      (list) => list.includes('Hello from legacy-signup'),
    );
    const visits = await harness.ingress.request('GET', journeysPath('/legacy-journey/travellers/device/j-other'), {
      key: project.apiKey,
    });
    expect(visits.body.data).toHaveLength(1);
  });

  it('waits for the delay before sending', async () => {
    await createJourney({ name: 'Welcome', trigger: { event: 'signup' }, delaySeconds: 1, body: 'Welcome aboard' });
    const postedAt = await report([{ type: 'signup', subjectType: 'device', subjectId: 'j-other' }]);
    const [delivery] = await waitFor(
      async () =>
        harness.sandbox
          .deliveries('j-tok-other')
          .filter((entry) => (entry.payload as any).notification.body === 'Welcome aboard'),
      (list) => list.length === 1,
    );
    expect(Date.parse(delivery!.receivedAt) - postedAt).toBeGreaterThanOrEqual(1000);
  });

  it('sends nothing for a paused journey, and nothing for travellers of one paused or deleted during their wait', async () => {
    await createJourney({ name: 'Off', trigger: { event: 'browse' }, body: 'Inactive journey', active: false });
    const deactivated = await createJourney({
      name: 'Later',
      trigger: { event: 'browse' },
      delaySeconds: 600,
      body: 'Deactivated journey',
    });
    const deleted = await createJourney({
      name: 'Gone',
      trigger: { event: 'browse' },
      delaySeconds: 600,
      body: 'Deleted journey',
    });
    // Its wait ends with the others': the step runner's pass that sends it passed the paused one over.
    const control = await createJourney({
      name: 'Control',
      trigger: { event: 'browse' },
      delaySeconds: 600,
      body: 'Control journey',
    });
    await report([{ type: 'browse', subjectType: 'device', subjectId: 'j-other' }]);
    const waiting = (journeyIds: string[]) =>
      models().JourneyTraveller.countDocuments({ journeyId: { $in: journeyIds }, at: 'message' });
    await waitFor(
      () => waiting([deactivated, deleted, control]),
      (count) => count === 3,
    );

    await deactivateJourney(harness.ingress, project, deactivated);
    expect((await harness.ingress.request('DELETE', journeysPath(`/${deleted}`), { key: project.apiKey })).status).toBe(
      200,
    );
    await waitsOver(models(), [deactivated, deleted, control]);

    await waitFor(
      async () => bodies('j-tok-other'),
      (list) => list.includes('Control journey'),
    );
    expect(bodies('j-tok-other')).not.toContain('Inactive journey');
    expect(bodies('j-tok-other')).not.toContain('Deactivated journey');
    expect(bodies('j-tok-other')).not.toContain('Deleted journey');
    expect(await journeySends(deactivated)).toEqual([]);
    const [gone] = await models().JourneyTraveller.find({ journeyId: deleted }).lean();
    expect(gone).toMatchObject({ state: 'done', endReason: 'journey_deleted' });
    const [held] = await models().JourneyTraveller.find({ journeyId: deactivated }).lean();
    expect(held).toMatchObject({ state: 'held', at: 'message' });
  });

  it('sends nothing twice when an ingest job is replayed', async () => {
    const journeyId = await createJourney({ name: 'Replay', trigger: { event: 'replayed' }, body: 'Replayed once' });
    const deps = {
      ...ingestWorker.context,
      activeJourneys: new ActiveJourneys(ingestWorker.context),
      settings: new ProjectSettingsCache(ingestWorker.context.models),
    };
    const job = {
      projectId: project.projectId,
      receivedAt: new Date().toISOString(),
      events: [{ type: 'replayed', subjectType: 'device' as const, subjectId: 'j-other', data: {} }],
    };
    expect(await travelEvents(deps, 'replayed-job', job)).toBe(1);
    expect(await travelEvents(deps, 'replayed-job', job)).toBe(0);
    const [send] = await waitFor(
      () => journeySends(journeyId),
      (sends) => sends.length === 1,
    );
    await waitUntilCompleted(harness.ingress, project, send!._id);
    expect(await journeySends(journeyId)).toHaveLength(1);
    expect(bodies('j-tok-other').filter((body) => body === 'Replayed once')).toHaveLength(1);
  });
});
