import { describe, expect, it } from 'vitest';
import { createPushClient, PushEngineError, type PushClient } from '../../clients/node/src/index.ts';
import { operationRoutes } from '../../clients/node/src/generated/operation-routes.ts';
import { useDeliveryHarness, waitUntilCompleted } from '../support/delivery-harness.ts';
import { ndjson } from '../support/device-imports.ts';
import { eventually } from '../support/eventually.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({
  projects: { project: 'team' },
  queues: ['send', 'deliver', 'tag-update', 'event-ingest', 'device-import'],
});

/** The client, with every call it makes recorded by operation id. */
function recordingClient(called: Set<string>): PushClient {
  const client = createPushClient({
    baseUrl: harness.ingress.baseUrl,
    apiKey: project.apiKey,
    clientKey: project.clientKey,
    projectId: project.projectId,
  });
  return new Proxy(client, {
    get(target, key: string) {
      if (key in operationRoutes) called.add(key);
      return target[key as keyof PushClient];
    },
  });
}

describe('the typed client against the app', () => {
  it('calls every operation of the API once, each answering its data', async () => {
    const called = new Set<string>();
    const push = recordingClient(called);
    const deviceId = 'client-device';

    expect((await push.listProjects()).map((listed) => listed.id)).toEqual([project.projectId]);
    expect(await push.getProject()).toMatchObject({ id: project.projectId, plan: 'team' });
    expect(await push.updateProjectSettings({ body: { quietHours: null } })).toMatchObject({ quietHours: null });

    const registered = await push.registerDevice({
      path: { deviceId },
      body: { platform: 'android', pushToken: 'client-token', userId: 'client-user', tags: { plan: 'pro' } },
    });
    expect(registered).toMatchObject({ id: deviceId, userId: 'client-user' });
    expect(await push.updateDevice({ path: { deviceId }, body: { tags: { visits: 2 } } })).toMatchObject({
      tags: { plan: 'pro', visits: 2 },
    });
    expect(await push.trackDeviceEvent({ path: { deviceId }, body: { type: 'opened_app' } })).toBeDefined();
    expect(await push.getClientConfig()).toBeDefined();
    expect(await push.listDeviceInAppMessages({ path: { deviceId } })).toEqual([]);
    expect(await push.getDevice({ path: { deviceId } })).toMatchObject({ id: deviceId, tags: { plan: 'pro' } });
    expect((await push.listDevices({ query: { userId: 'client-user' } })).map((device) => device.id)).toEqual([
      deviceId,
    ]);
    expect(await push.getDeviceSubscription({ path: { deviceId } })).toBeDefined();

    const template = await push.createTemplate({ body: { name: 'Welcome', body: 'Hello {{ device.tags.plan }}' } });
    expect(await push.getTemplate({ path: { id: template.id } })).toMatchObject({ name: 'Welcome' });
    expect((await push.listTemplates()).map((listed) => listed.id)).toEqual([template.id]);
    expect(
      await push.replaceTemplate({ path: { id: template.id }, body: { name: 'Welcome back', body: 'Hi' } }),
    ).toMatchObject({ name: 'Welcome back' });

    const rules = { match: 'all' as const, conditions: [{ tag: 'plan', op: 'eq' as const, value: 'pro' }] };
    const segment = await push.createSegment({ body: { name: 'Pro', ...rules } });
    expect(await push.getSegment({ path: { id: segment.id } })).toMatchObject({ name: 'Pro' });
    expect(await push.listSegments()).toHaveLength(1);
    expect(
      await push.replaceSegment({ path: { id: segment.id }, body: { name: 'Pro users', ...rules } }),
    ).toMatchObject({ name: 'Pro users' });
    expect(await push.previewSegment({ path: { id: segment.id } })).toMatchObject({ count: 1 });
    expect(await push.previewSegmentFilter({ body: rules })).toMatchObject({ count: 1 });

    const journey = { name: 'Thanks', trigger: { event: 'purchase' }, title: 'Thanks', body: 'See you soon' };
    const created = await push.createJourney({ body: journey });
    expect(await push.getJourney({ path: { id: created.id } })).toMatchObject({ name: 'Thanks' });
    expect(await push.listJourneys()).toHaveLength(1);
    expect(await push.replaceJourney({ path: { id: created.id }, body: { ...journey, active: false } })).toMatchObject({
      status: 'paused',
    });
    expect(
      await push.getJourneyTraveller({ path: { id: created.id, subjectType: 'device', subjectId: deviceId } }),
    ).toEqual([]);

    const message = {
      name: 'Cart',
      status: 'paused' as const,
      layout: 'modal' as const,
      body: 'Your cart is waiting',
      trigger: { event: 'added_to_cart' },
      frequency: 'always' as const,
    };
    const inApp = await push.createInAppMessage({ body: message });
    expect(await push.getInAppMessage({ path: { id: inApp.id } })).toMatchObject({ name: 'Cart' });
    expect(await push.listInAppMessages()).toHaveLength(1);
    expect(
      await push.replaceInAppMessage({ path: { id: inApp.id }, body: { ...message, layout: 'banner' } }),
    ).toMatchObject({ layout: 'banner' });

    const endpoint = { url: 'http://127.0.0.1:9/hooks', events: ['message.failed' as const] };
    const webhook = await push.createWebhookEndpoint({ body: endpoint });
    expect(await push.getWebhookEndpoint({ path: { id: webhook.id } })).toMatchObject({ url: endpoint.url });
    expect(await push.listWebhookEndpoints()).toHaveLength(1);
    expect(
      await push.replaceWebhookEndpoint({ path: { id: webhook.id }, body: { ...endpoint, enabled: false } }),
    ).toMatchObject({ enabled: false });
    expect(await push.listWebhookAttempts({ path: { id: webhook.id } })).toEqual([]);

    expect(await push.previewNotification({ body: { deviceId, templateId: template.id } })).toMatchObject({
      body: 'Hi',
    });
    const { id } = await push.sendNotification({
      body: { targetType: 'device', targetIds: [deviceId], title: 'Sale', body: 'Everything -20%' },
    });
    await waitUntilCompleted(harness.ingress, project, id);
    expect(harness.sandbox.deliveries('client-token')).toHaveLength(1);
    expect(await push.getNotification({ path: { notificationId: id } })).toMatchObject({ id, status: 'completed' });
    expect((await push.listNotifications()).map((listed) => listed.id)).toEqual([id]);
    expect(await push.listDeliveries({ path: { notificationId: id } })).toMatchObject([{ deviceId, outcome: 'sent' }]);
    expect(await push.getDeliverySummary({ path: { notificationId: id } })).toBeDefined();
    const deliveryCsv = await push.listDeliveries({ path: { notificationId: id }, query: { format: 'csv' } });
    expect(deliveryCsv.split('\n')[1]).toMatch(new RegExp(`^${deviceId},android,sent,`));
    expect(await push.getNotificationHistory({ path: { deviceId } })).toMatchObject([{ notification: { id } }]);
    const variants = ['a', 'b'].map((name) => ({ name, body: `Variant ${name}` }));
    const tested = await push.sendNotification({
      body: {
        targetType: 'device',
        targetIds: [deviceId],
        variants,
        experiment: { metric: 'clicked', decideAfterMinutes: 60, winner: 'manual' },
      },
    });
    await eventually(async () =>
      expect(await push.getNotification({ path: { notificationId: tested.id } })).toMatchObject({
        stats: { sent: 1 },
      }),
    );
    expect(
      await push.pickExperimentWinner({ path: { notificationId: tested.id }, body: { variant: 'b' } }),
    ).toMatchObject({ experiment: { winner: 'b', decidedBy: 'manual' } });
    const later = await push.sendNotification({
      body: {
        targetType: 'device',
        targetIds: [deviceId],
        body: 'Later',
        sendAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(await push.cancelNotification({ path: { notificationId: later.id } })).toMatchObject({ id: later.id });

    const tags = { userId: 'client-user', tags: { plan: 'free' } };
    expect(await push.updateUserTags({ body: tags })).toMatchObject({ devices: [{ id: deviceId }] });
    expect(await push.postUserTags({ body: tags })).toMatchObject({ devices: [{ id: deviceId }] });
    expect(await push.listTagSuggestions()).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'plan', values: ['free'] })]),
    );
    const purchase = { type: 'purchase', subjectType: 'device', subjectId: deviceId, data: { amount: 12 } };
    expect(await push.reportEvents({ body: { events: [purchase] } })).toEqual({ success: 1, error: [] });
    expect(await push.trackEvents({ body: { events: [purchase] } })).toEqual({ success: 1, error: [] });
    expect(await push.createEventType({ body: { type: 'signed_up' } })).toBeDefined();
    expect(await push.listEventTypes()).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'signed_up' })]),
    );
    expect(Array.isArray(await push.listEvents({ query: { deviceId } }))).toBe(true);
    expect(await push.getOverview()).toBeDefined();

    const rows = ndjson([
      { id: 'imported-1', platform: 'android', pushToken: 'imported-token-1', tags: { source: 'import' } },
      { id: 'imported-2', platform: 'ios', pushToken: 'imported-token-2' },
    ]);
    const upload = await push.createDeviceImport({
      body: new Blob([rows]).stream(),
      contentType: 'application/x-ndjson',
    });
    expect(upload).toMatchObject({ status: 'queued' });
    const imported = await eventually(async () => {
      const read = await push.getDeviceImport({ path: { importId: upload.id } });
      expect(read.status).toBe('completed');
      return read;
    });
    expect(imported).toMatchObject({ rows: 2, created: 2, failed: 0 });
    expect((await push.listDeviceImports()).map((listed) => listed.id)).toEqual([upload.id]);
    const exported = (await push.exportDevices()).trim().split('\n');
    expect(exported.map((line) => JSON.parse(line).id)).toEqual([deviceId, 'imported-1', 'imported-2']);
    const csv = await new Response(await push.exportDevices({ query: { format: 'csv' }, as: 'stream' })).text();
    expect(csv.split('\n')[0]).toContain('tag:source');

    for (const remove of [
      () => push.deleteTemplate({ path: { id: template.id } }),
      () => push.deleteSegment({ path: { id: segment.id } }),
      () => push.deleteJourney({ path: { id: created.id } }),
      () => push.deleteInAppMessage({ path: { id: inApp.id } }),
      () => push.deleteWebhookEndpoint({ path: { id: webhook.id } }),
      () => push.eraseDevice({ path: { deviceId } }),
    ]) {
      expect(await remove()).toMatchObject({ deleted: true });
    }
    const rotated = await push.rotateProjectKeys();
    expect(rotated.apiKey).not.toBe(project.apiKey);

    const uncalled = Object.keys(operationRoutes).filter((operation) => !called.has(operation));
    expect(uncalled, 'operations this test never calls').toEqual([]);
  });

  it("throws a refusal as a PushEngineError carrying CONTRACTS §1's code and details", async () => {
    const project2 = await harness.ingress.createProject('team');
    const push = createPushClient({
      baseUrl: harness.ingress.baseUrl,
      apiKey: project2.apiKey,
      projectId: project2.projectId,
    });
    const refused = await push
      .sendNotification({ body: { targetType: 'device', targetIds: [], body: '' } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PushEngineError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((refused as PushEngineError).details.map((detail) => detail.path)).toContain('/targetIds');
    const missing = await push.getNotification({ path: { notificationId: 'nope' } }).catch((error: unknown) => error);
    expect(missing).toMatchObject({ name: 'PushEngineError', status: 404, code: 'not_found' });
  });
});
