import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { eventually } from '../support/eventually.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

const adminToken = 'webhooks-admin-token';
const { harness } = useDeliveryHarness({ queues: ['send', 'deliver', 'webhook'], configOverrides: { adminToken } });

/** One sample of /metrics. */
async function metric(name: string): Promise<number> {
  const response = await fetch(`${harness.ingress.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const line = (await response.text()).split('\n').find((text) => text.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const api = (project: CreatedProject, method: string, path: string, body?: unknown) =>
  harness.ingress.request(method, `/v1/projects/${project.projectId}${path}`, { key: project.apiKey, body });

/** A fresh project with an endpoint on a loopback receiver, so no other test's cache or events are in the way. */
async function projectWithEndpoint(events: string[]) {
  const project = await harness.ingress.createProject('team');
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = await api(project, 'POST', '/webhooks', { url: receiver.url, events });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { project, receiver, endpoint: created.body.data };
}

const verify = (secret: string, call: ReceivedWebhook) =>
  new Webhook(secret).verify(call.body, call.headers as Record<string, string>);

const everyEvent = ['notification.completed', 'message.failed', 'device.unsubscribed', 'message.clicked'];

describe('webhook endpoints', () => {
  it('answers the secret once, lists the endpoint enabled, and refuses bad input with a 400 naming each field', async () => {
    const { project, endpoint } = await projectWithEndpoint(['message.failed']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(endpoint).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    const read = await api(project, 'GET', `/webhooks/${endpoint.id}`);
    expect(read.body.data.secret).toBeUndefined();
    const list = await api(project, 'GET', '/webhooks');
    expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([endpoint.id]);
    expect(list.body.data[0].secret).toBeUndefined();

    const bad = await api(project, 'POST', '/webhooks', { url: 'ftp://x', events: ['message.nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect(bad.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['/events/0', '/url']);

    const disabled = await api(project, 'PUT', `/webhooks/${endpoint.id}`, {
      url: endpoint.url,
      events: ['message.failed'],
      enabled: false,
    });
    expect(disabled.body.data).toMatchObject({ enabled: false, disabledReason: null, disabledAt: expect.any(String) });
    const other = await harness.ingress.createProject('team');
    expect((await api(other, 'GET', `/webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await api(other, 'GET', `/webhooks/${endpoint.id}/attempts`)).status).toBe(404);
    expect((await api(project, 'DELETE', `/webhooks/${endpoint.id}`)).status).toBe(200);
    expect((await api(project, 'GET', `/webhooks/${endpoint.id}`)).status).toBe(404);
  });
});

describe('events', () => {
  it('delivers each event type signed, once the send has finished, with the final stats and the click', async () => {
    const { project, receiver, endpoint } = await projectWithEndpoint(everyEvent);
    await registerDevices(harness.ingress, project, [
      { id: 'ok', platform: 'android', token: 'tok-ok', userId: 'u1' },
      { id: 'refused', platform: 'android', token: 'badpayload-1' },
      { id: 'gone', platform: 'ios', token: 'unregistered-1', userId: 'u2' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['ok', 'refused', 'gone'],
      title: 'Hi',
      body: 'there',
    });
    const final = await waitUntilCompleted(harness.ingress, project, id);
    const completed = await eventually(() => {
      expect(receiver.ofType('notification.completed')).toHaveLength(1);
      return receiver.ofType('notification.completed')[0]!;
    });
    expect(completed.event.data).toEqual(final);
    expect(completed.event.data.stats).toMatchObject({ targeted: 3, sent: 1, failed: 1, unsubscribed: 1 });
    const failed = receiver.ofType('message.failed');
    expect(failed.map((call) => call.event.data)).toEqual([
      { notificationId: id, deviceId: 'refused', reason: expect.any(String) },
    ]);
    const unsubscribed = await eventually(() => {
      expect(receiver.ofType('device.unsubscribed')).toHaveLength(1);
      return receiver.ofType('device.unsubscribed');
    });
    expect(unsubscribed[0]!.event.data).toEqual({
      deviceId: 'gone',
      userId: 'u2',
      platform: 'ios',
      reason: expect.stringContaining('Unregistered'),
    });

    const click = (deviceId: string) =>
      harness.ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}/events`, {
        key: project.clientKey,
        body: { type: '@clicked', data: { notificationId: id } },
      });
    expect((await click('refused')).status).toBe(200);
    expect((await click('ok')).status).toBe(200);
    const clicked = await eventually(() => {
      expect(receiver.ofType('message.clicked')).toHaveLength(1);
      return receiver.ofType('message.clicked')[0]!;
    });
    expect(clicked.event.data).toEqual({ notificationId: id, deviceId: 'ok' });
    // The device the push failed for was never sent it: its click is accepted and not counted (CONTRACTS §6).
    expect((await readNotification(harness.ingress, project, id)).stats.clicked).toBe(1);

    for (const call of receiver.received) {
      expect(call.headers['webhook-id']).toMatch(/^msg_/);
      expect(verify(endpoint.secret, call)).toEqual(call.event);
      expect(() => verify(endpoint.secret, { ...call, body: call.body.replace('"data"', '"data" ') })).toThrow();
    }
    expect(new Set(receiver.received.map((call) => call.headers['webhook-id'])).size).toBe(receiver.received.length);
  });

  it("sends in_app.* for a device's @iam_* reports, one event per report even when the SDK retries it", async () => {
    const { project, receiver, endpoint } = await projectWithEndpoint(['in_app.displayed', 'in_app.clicked']);
    await registerDevices(harness.ingress, project, [{ id: 'iam-device', platform: 'web', token: 'iam-token' }]);
    const report = (type: string, data: object, idempotencyKey: string) =>
      harness.ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/iam-device/events`, {
        key: project.clientKey,
        body: { type, data },
        headers: { 'idempotency-key': idempotencyKey },
      });
    expect((await report('@iam_displayed', { inAppMessageId: 'm1' }, 'show-1')).status).toBe(200);
    expect((await report('@iam_displayed', { inAppMessageId: 'm1' }, 'show-1')).status).toBe(200);
    expect((await report('@iam_clicked', { inAppMessageId: 'm1', buttonId: 'buy' }, 'click-1')).status).toBe(200);
    // Not subscribed: no call.
    expect((await report('@iam_closed', { inAppMessageId: 'm1' }, 'close-1')).status).toBe(200);
    await eventually(() => expect(receiver.received).toHaveLength(2));
    const events = receiver.received.map((call) => JSON.parse(call.body));
    expect(events.map((event) => [event.type, event.data]).sort()).toEqual([
      ['in_app.clicked', { inAppMessageId: 'm1', deviceId: 'iam-device', buttonId: 'buy' }],
      ['in_app.displayed', { inAppMessageId: 'm1', deviceId: 'iam-device' }],
    ]);
    for (const call of receiver.received) expect(() => verify(endpoint.secret, call)).not.toThrow();
  });

  it('retries a failing receiver with the same webhook-id until a 2xx, then never again but for a replay, under that id', async () => {
    const { project, receiver, endpoint } = await projectWithEndpoint(['message.failed']);
    const failedBefore = await metric('push_webhook_calls_total{result="failed"}');
    let calls = 0;
    receiver.answer = () => (++calls <= 3 ? 500 : 200);
    await registerDevices(harness.ingress, project, [{ id: 'refused', platform: 'android', token: 'badpayload-2' }]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['refused'],
      body: 'x',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    await eventually(() => expect(receiver.received).toHaveLength(4));
    expect(new Set(receiver.received.map((call) => call.headers['webhook-id'])).size).toBe(1);
    const attempts = await eventually(async () => {
      const listed = (await api(project, 'GET', `/webhooks/${endpoint.id}/attempts`)).body.data;
      expect(listed).toHaveLength(4);
      return listed;
    });
    expect(attempts.map((attempt: { status: number }) => attempt.status)).toEqual([200, 500, 500, 500]);
    expect(attempts[0]).toMatchObject({ type: 'message.failed', durationMs: expect.any(Number) });
    const job = await harness.ingress.context.queues.webhook.getJob(
      receiver.received[0]!.headers['webhook-id'] as string,
    );
    await eventually(async () => expect(await job!.getState()).toBe('completed'));
    expect(receiver.received).toHaveLength(4);
    // Counted with the attempts' records, within a second of the calls.
    await eventually(async () =>
      expect(await metric('push_webhook_calls_total{result="failed"}')).toBe(failedBefore + 3),
    );

    // A replay from the dashboard (its Retry on the job) sends the event again under the same webhook-id.
    await job!.retry('completed');
    await eventually(() => expect(receiver.received).toHaveLength(5));
    expect(receiver.received[4]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(receiver.received[4]!.body).toBe(receiver.received[0]!.body);
  });

  it('disables the endpoint on a 410 and sends it no later event', async () => {
    const { project, receiver, endpoint } = await projectWithEndpoint(['message.failed', 'notification.completed']);
    receiver.answer = () => 410;
    await registerDevices(harness.ingress, project, [{ id: 'refused', platform: 'android', token: 'badpayload-3' }]);
    const send = () =>
      sendNotification(harness.ingress, project, { targetType: 'device', targetIds: ['refused'], body: 'x' });
    await waitUntilCompleted(harness.ingress, project, await send());
    const disabled = await eventually(async () => {
      const read = (await api(project, 'GET', `/webhooks/${endpoint.id}`)).body.data;
      expect(read.enabled).toBe(false);
      return read;
    });
    expect(disabled.disabledReason).toMatch(/410/);
    expect(disabled.disabledAt).toEqual(expect.any(String));
    const before = receiver.received.length;
    const second = await send();
    await waitUntilCompleted(harness.ingress, project, second);
    // The webhook queue has drained: every job for the second send was dropped, not sent.
    await eventually(async () => {
      const counts = await harness.ingress.context.queues.webhook.getJobCounts('waiting', 'active', 'delayed');
      expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0 });
    });
    expect(receiver.received.filter((call) => JSON.stringify(call.event.data).includes(second))).toEqual([]);
    expect(receiver.received.length).toBeLessThanOrEqual(before + 0);
  });
});

describe('an endpoint failing for the whole retry window', () => {
  it('is disabled with the reason and the time, and its event is not retried further', async () => {
    const project = await harness.ingress.createProject('team');
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    receiver.answer = () => 503;
    const created = await api(project, 'POST', '/webhooks', { url: receiver.url, events: ['message.failed'] });
    const endpointId = created.body.data.id;
    // The window of this test's workers is a day; one that has failed since yesterday is past it.
    await harness.ingress.context.models.WebhookEndpoint.updateOne(
      { _id: endpointId },
      { $set: { failingSince: new Date(Date.now() - 25 * 3600 * 1000) } },
    );
    await registerDevices(harness.ingress, project, [{ id: 'refused', platform: 'android', token: 'badpayload-4' }]);
    await sendNotification(harness.ingress, project, { targetType: 'device', targetIds: ['refused'], body: 'x' });
    const disabled = await eventually(async () => {
      const read = (await api(project, 'GET', `/webhooks/${endpointId}`)).body.data;
      expect(read.enabled).toBe(false);
      return read;
    });
    expect(disabled).toMatchObject({
      disabledReason: 'every call failed for 24 hours',
      disabledAt: expect.any(String),
    });
    await eventually(async () => {
      const counts = await harness.ingress.context.queues.webhook.getJobCounts('waiting', 'active', 'delayed');
      expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0 });
    });
    expect(receiver.received).toHaveLength(1);
  });
});
