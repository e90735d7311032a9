import { afterEach, describe, expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import {
  type DeliveryHarness,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { gatewayCallSize } from '../../src/delivery/delivery-run.ts';
import { patchSettings } from '../support/timing.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const queues = ['send', 'deliver', 'webhook'] as const;
const {
  harness,
  projects: { project, other },
} = useDeliveryHarness({ queues: [...queues], projects: { project: 'team', other: 'team' } });

const deliveries = (owner: typeof project, notificationId: string, query = '') =>
  harness.ingress.request('GET', `/v1/projects/${owner.projectId}/notifications/${notificationId}/deliveries${query}`, {
    key: owner.apiKey,
  });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A fresh project of `on` with an endpoint on a loopback receiver subscribed to `events`. */
async function projectWithEndpoint(on: DeliveryHarness, events: string[]) {
  const fresh: CreatedProject = await on.ingress.createProject('team');
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = await on.ingress.request('POST', `/v1/projects/${fresh.projectId}/webhooks`, {
    key: fresh.apiKey,
    body: { url: receiver.url, events },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { project: fresh, receiver };
}

const logOf = async (on: DeliveryHarness, owner: CreatedProject, notificationId: string) => {
  const answer = await on.ingress.request(
    'GET',
    `/v1/projects/${owner.projectId}/notifications/${notificationId}/deliveries`,
    { key: owner.apiKey },
  );
  expect(answer.status).toBe(200);
  return answer.body.data as { deviceId: string; outcome: string; reason?: string }[];
};

describe('GET /notifications/{id}/deliveries: the delivery log', () => {
  it('lists each device once with its outcome and reason, filters by outcome and pages by after', async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'a-sent', platform: 'android', token: 'tok-a' },
      { id: 'b-failed', platform: 'android', token: 'badpayload-b' },
      { id: 'c-gone', platform: 'ios', token: 'unregistered-c' },
      { id: 'd-invalid', platform: 'android', token: 'invalid-d' },
      { id: 'e-sent', platform: 'ios', token: 'tok-e' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['a-sent', 'b-failed', 'c-gone', 'd-invalid', 'e-sent'],
      body: 'Hello',
    });
    await waitUntilCompleted(harness.ingress, project, id);
    const all = await deliveries(project, id);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { deviceId: 'a-sent', platform: 'android', outcome: 'sent', at: expect.any(String) },
      {
        deviceId: 'b-failed',
        platform: 'android',
        outcome: 'failed',
        reason: expect.any(String),
        at: expect.any(String),
      },
      {
        deviceId: 'c-gone',
        platform: 'ios',
        outcome: 'unsubscribed',
        reason: expect.stringContaining('Unregistered'),
        at: expect.any(String),
      },
      {
        deviceId: 'd-invalid',
        platform: 'android',
        outcome: 'unsubscribed',
        reason: expect.any(String),
        at: expect.any(String),
      },
      { deviceId: 'e-sent', platform: 'ios', outcome: 'sent', at: expect.any(String) },
    ]);

    const sent = await deliveries(project, id, '?outcome=sent');
    expect(sent.body.data.map((entry: { deviceId: string }) => entry.deviceId)).toEqual(['a-sent', 'e-sent']);

    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const page = await deliveries(project, id, `?limit=2${after ? `&after=${after}` : ''}`);
      const ids = page.body.data.map((entry: { deviceId: string }) => entry.deviceId);
      pages.push(ids);
      after = ids.at(-1);
    } while (pages.at(-1)!.length === 2);
    expect(pages).toEqual([['a-sent', 'b-failed'], ['c-gone', 'd-invalid'], ['e-sent']]);

    const summary = await harness.ingress.request(
      'GET',
      `/v1/projects/${project.projectId}/notifications/${id}/delivery-summary`,
      { key: project.apiKey },
    );
    const none = { capped: 0, expired: 0 };
    expect(summary.body.data.byPlatform).toEqual([
      { platform: 'android', sent: 1, failed: 1, unsubscribed: 1, ...none },
      { platform: 'ios', sent: 1, failed: 0, unsubscribed: 1, ...none },
    ]);
    expect(summary.body.data.reasons).toHaveLength(3);
    expect(summary.body.data.reasons.map((reason: { outcome: string }) => reason.outcome).sort()).toEqual([
      'failed',
      'unsubscribed',
      'unsubscribed',
    ]);
  });

  it('logs and unsubscribes the refused devices of every gateway call of a batch once each, with their events', async () => {
    const { project: fresh, receiver } = await projectWithEndpoint(harness, ['device.unsubscribed', 'message.failed']);
    // Three gateway calls of one batch, each with dead tokens and refused payloads among the pushes it sends.
    const count = 2 * gatewayCallSize + 10;
    const prefixes: Record<number, string> = { 0: 'unregistered-', 5: 'badpayload-' };
    const ids = Array.from({ length: count }, (_, index) => `multi-${index}`);
    await registerDevices(
      harness.ingress,
      fresh,
      ids.map((id, index) => ({
        id,
        platform: 'android' as const,
        token: `${prefixes[index % 10] ?? 'tok-'}${id}`,
        tags: { multi: 1 },
      })),
    );
    const segment = await harness.ingress.request('POST', `/v1/projects/${fresh.projectId}/segments`, {
      key: fresh.apiKey,
      body: { name: 'all of them', match: 'all', conditions: [{ tag: 'multi', op: 'exists' }] },
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(200);
    const dead = ids.filter((_, index) => index % 10 === 0);
    const failing = ids.filter((_, index) => index % 10 === 5);
    const id = await sendNotification(harness.ingress, fresh, {
      targetType: 'segment',
      targetIds: [segment.body.data.id],
      body: 'Hello',
    });
    const { stats } = await waitUntilCompleted(harness.ingress, fresh, id, 30_000);
    expect(stats).toMatchObject({ sent: count - dead.length - failing.length, unsubscribed: dead.length });
    expect(stats.failed).toBe(failing.length);

    const logged = async (outcome: string) =>
      ((await deliveries(fresh, id, `?outcome=${outcome}&limit=1000`)).body.data as { deviceId: string }[])
        .map((entry) => entry.deviceId)
        .sort();
    expect(await logged('unsubscribed')).toEqual([...dead].sort());
    expect(await logged('failed')).toEqual([...failing].sort());
    const stillSubscribed = await harness.ingress.context.models.Device.find(
      { projectId: fresh.projectId, isSubscribed: true },
      { deviceId: 1 },
    ).lean();
    expect(stillSubscribed.map((device) => device.deviceId).filter((deviceId) => dead.includes(deviceId))).toEqual([]);
    expect(stillSubscribed).toHaveLength(count - dead.length);
    const heard = (type: string) =>
      receiver
        .ofType(type)
        .map((call) => call.event.data.deviceId)
        .sort();
    await eventually(() => {
      expect(heard('device.unsubscribed')).toEqual([...dead].sort());
      expect(heard('message.failed')).toEqual([...failing].sort());
    });
  }, 90_000);

  it("answers 404 for another project's notification and 400 for an unknown outcome", async () => {
    await registerDevices(harness.ingress, project, [{ id: 'x', platform: 'android', token: 'tok-x' }]);
    const id = await sendNotification(harness.ingress, project, { targetType: 'device', targetIds: ['x'], body: 'Hi' });
    await waitUntilCompleted(harness.ingress, project, id);
    const foreign = await deliveries(other, id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const bad = await deliveries(project, id, '?outcome=lost&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
  });
});

describe('devices that end without a gateway call are in the log too', () => {
  it('logs a device the frequency cap stopped as capped, with no message.failed', async () => {
    const { project: fresh, receiver } = await projectWithEndpoint(harness, [
      'message.failed',
      'notification.completed',
    ]);
    await patchSettings(harness.ingress, fresh, { frequencyCap: { max: 1, windowHours: 1 } });
    await registerDevices(harness.ingress, fresh, [{ id: 'capped-1', platform: 'android', token: 'tok-capped-1' }]);
    const send = () =>
      sendNotification(harness.ingress, fresh, { targetType: 'device', targetIds: ['capped-1'], body: 'hi' });
    const first = await send();
    expect((await waitUntilCompleted(harness.ingress, fresh, first)).stats).toMatchObject({ sent: 1, capped: 0 });
    const second = await send();
    expect((await waitUntilCompleted(harness.ingress, fresh, second)).stats).toMatchObject({ sent: 0, capped: 1 });

    expect(await logOf(harness, fresh, first)).toEqual([
      { deviceId: 'capped-1', platform: 'android', outcome: 'sent', at: expect.any(String) },
    ]);
    expect(await logOf(harness, fresh, second)).toEqual([
      { deviceId: 'capped-1', platform: 'android', outcome: 'capped', at: expect.any(String) },
    ]);
    await eventually(() => expect(receiver.ofType('notification.completed')).toHaveLength(2));
    expect(receiver.ofType('message.failed')).toEqual([]);
  });

  it('logs pushes held past their ttl as expired and publishes message.failed for each', async () => {
    const { project: fresh, receiver } = await projectWithEndpoint(harness, ['message.failed']);
    await harness.ingress.context.models.Project.updateOne(
      { _id: fresh.projectId },
      { $set: { deliveryRatePerSecond: 0.5 } },
    );
    const ids = ['held-1', 'held-2', 'held-3'];
    await registerDevices(
      harness.ingress,
      fresh,
      ids.map((id) => ({ id, platform: 'android' as const, token: `tok-${id}` })),
    );
    const id = await sendNotification(harness.ingress, fresh, {
      targetType: 'device',
      targetIds: ids,
      body: 'flash sale, one second only',
      ttl: 1,
    });
    const { stats } = await waitUntilCompleted(harness.ingress, fresh, id, 20_000);
    expect(stats.failed).toBeGreaterThanOrEqual(2);

    const log = await logOf(harness, fresh, id);
    expect(log).toHaveLength(3);
    const expired = log.filter((entry) => entry.outcome === 'expired');
    expect(expired).toHaveLength(stats.failed);
    for (const entry of expired) expect(entry.reason).toBe('expired');
    expect(log.filter((entry) => entry.outcome === 'sent')).toHaveLength(stats.sent);

    const failed = await eventually(() => {
      expect(receiver.ofType('message.failed')).toHaveLength(expired.length);
      return receiver.ofType('message.failed');
    });
    expect(failed.map((call) => call.event.data).sort((a, b) => a.deviceId.localeCompare(b.deviceId))).toEqual(
      expired.map((entry) => ({ notificationId: id, deviceId: entry.deviceId, reason: 'expired' })),
    );
  });

  it('gives each device whose content could not be rendered its own reason, in its entry and its message.failed', async () => {
    const { project: fresh, receiver } = await projectWithEndpoint(harness, ['message.failed']);
    // One body: three x for one device, nothing at all for another, a range past the memory limit for the third.
    await registerDevices(harness.ingress, fresh, [
      { id: 'a-three', platform: 'android', token: 'three-token', tags: { n: 3 } },
      { id: 'b-none', platform: 'android', token: 'none-token', tags: { n: 0 } },
      { id: 'c-huge', platform: 'android', token: 'huge-token', tags: { n: 5_000_000 } },
    ]);
    const id = await sendNotification(harness.ingress, fresh, {
      targetType: 'device',
      targetIds: ['a-three', 'b-none', 'c-huge'],
      body: '{% for i in (1..device.tags.n) %}x{% endfor %}',
    });
    const { stats } = await waitUntilCompleted(harness.ingress, fresh, id, 20_000);
    expect(stats).toMatchObject({ sent: 1, failed: 2 });

    const blank = expect.stringMatching(/^the body renders blank/);
    const memory = expect.stringMatching(/^memory alloc limit exceeded/);
    expect(await logOf(harness, fresh, id)).toEqual([
      { deviceId: 'a-three', platform: 'android', outcome: 'sent', at: expect.any(String) },
      { deviceId: 'b-none', platform: 'android', outcome: 'failed', reason: blank, at: expect.any(String) },
      { deviceId: 'c-huge', platform: 'android', outcome: 'failed', reason: memory, at: expect.any(String) },
    ]);
    const failed = await eventually(() => {
      expect(receiver.ofType('message.failed')).toHaveLength(2);
      return receiver.ofType('message.failed');
    });
    expect(failed.map((call) => call.event.data).sort((a, b) => a.deviceId.localeCompare(b.deviceId))).toEqual([
      { notificationId: id, deviceId: 'b-none', reason: blank },
      { notificationId: id, deviceId: 'c-huge', reason: memory },
    ]);
  });

  describe('a render stopped at its time bound', () => {
    /** Small, so the costly device's render is stopped soon; this file's other tests render nothing near it. */
    const bounded = useDeliveryHarness({ queues: [...queues], configOverrides: { renderTimeoutMs: 500 } }).harness;
    const segments = Array.from({ length: 512 }, () => 'a').join('.');

    it('logs the device as failed with its render_timeout reason and publishes message.failed', async () => {
      const { project: fresh, receiver } = await projectWithEndpoint(bounded, ['message.failed']);
      await registerDevices(bounded.ingress, fresh, [
        { id: 'a-modest', platform: 'android', token: 'modest-token', tags: { items: 3, path: 'a' } },
        { id: 'b-costly', platform: 'android', token: 'costly-token', tags: { items: 1_000_000, path: segments } },
      ]);
      const id = await sendNotification(bounded.ingress, fresh, {
        targetType: 'device',
        targetIds: ['a-modest', 'b-costly'],
        body: '{{ (1..device.tags.items) | has: device.tags.path }} for you',
      });
      const { stats } = await waitUntilCompleted(bounded.ingress, fresh, id, 20_000);
      expect(stats).toMatchObject({ sent: 1, failed: 1 });

      expect(await logOf(bounded, fresh, id)).toEqual([
        { deviceId: 'a-modest', platform: 'android', outcome: 'sent', at: expect.any(String) },
        {
          deviceId: 'b-costly',
          platform: 'android',
          outcome: 'failed',
          reason: expect.stringMatching(/^render_timeout/),
          at: expect.any(String),
        },
      ]);
      const failed = await eventually(() => {
        expect(receiver.ofType('message.failed')).toHaveLength(1);
        return receiver.ofType('message.failed');
      });
      expect(failed[0]!.event.data).toEqual({
        notificationId: id,
        deviceId: 'b-costly',
        reason: expect.stringMatching(/^render_timeout/),
      });
    });
  });
});
