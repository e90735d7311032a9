import { afterEach, describe, expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { sendNotification, useDeliveryHarness } from '../support/delivery-harness.ts';
import {
  loggedUnsubscribed,
  projectWithDevices,
  runOf,
  subscribedToday as subscribedOn,
  unsubscribedOf as unsubscribed,
} from '../support/gathered-refusals.ts';
import { eventually } from '../support/eventually.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { claimRefusals, gatherRefusals } from '../../src/refusals/gathered-refusals.ts';
import { flushRefusals, sweepRefusals } from '../../src/refusals/flush-refusals.ts';
import { writeRefusals } from '../../src/refusals/refused-devices.ts';
import { completeSend } from '../../src/fan-out/complete-send.ts';

const { harness } = useDeliveryHarness({ queues: ['webhook'] });
const deps = () => harness.ingress.context;

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A fresh project with `count` registered devices and an endpoint subscribed to device.unsubscribed. */
async function projectWithEndpoint(count: number) {
  const { project, ids } = await projectWithDevices(harness.ingress, count);
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, {
    key: project.apiKey,
    body: { url: receiver.url, events: ['device.unsubscribed', 'message.failed'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { project, receiver, ids };
}

const unsubscribedOf = (project: CreatedProject) => unsubscribed(harness.ingress, project);
const loggedOf = (notificationId: string) => loggedUnsubscribed(harness.ingress, notificationId);
const subscribedToday = (project: CreatedProject) => subscribedOn(harness.ingress, project);

describe('refused devices gathered in Redis', () => {
  it('are written once, counts and events exact, after a flusher died holding them, and after one died having written part of them', async () => {
    const { project, receiver, ids } = await projectWithEndpoint(12);
    const notificationId = 'gathered-refusals-kill';
    const before = await subscribedToday(project);
    await gatherRefusals(deps(), runOf(project, notificationId, ids.slice(0, 5)));
    await gatherRefusals(deps(), runOf(project, notificationId, ids.slice(5)));

    // A flusher claims them and dies before writing: its lease keeps them from the sweep while it could be alive.
    const died = await claimRefusals(deps(), notificationId, { leased: false });
    expect(died.runs.flatMap((run) => run.rejected.map((rejection) => rejection.deviceId)).sort()).toEqual(
      [...ids].sort(),
    );
    expect(await sweepRefusals(deps())).toMatchObject({ notifications: 1 });
    expect(await unsubscribedOf(project)).toEqual([]);

    // Taken again once the lease is over (here: by a flusher whose lease is already over), by one that wrote half
    // of them and died before releasing the claim, then by the sweep: each device written once.
    const halfWritten = await claimRefusals(deps(), notificationId, { leased: true, leaseMs: 0 });
    await writeRefusals(deps(), halfWritten.runs.slice(0, 1));
    expect(await unsubscribedOf(project)).toHaveLength(halfWritten.runs[0]!.rejected.length);
    await sweepRefusals(deps());

    expect(await unsubscribedOf(project)).toEqual([...ids].sort());
    expect(await loggedOf(notificationId)).toEqual([...ids].sort());
    expect(await subscribedToday(project)).toBe(before - ids.length);
    await eventually(() =>
      expect(
        receiver
          .ofType('device.unsubscribed')
          .map((call) => call.event.data.deviceId)
          .sort(),
      ).toEqual([...ids].sort()),
    );
    // Nothing is left to write: a later sweep finds no notification.
    expect(await sweepRefusals(deps())).toEqual({ notifications: 0 });
    expect(await subscribedToday(project)).toBe(before - ids.length);
    expect(receiver.ofType('device.unsubscribed')).toHaveLength(ids.length);
  });

  it('reads a send completed only once its gathered refusals are written, those a living flusher holds included', async () => {
    const { project, ids } = await projectWithEndpoint(6);
    // A send of the project held for a day: its send job does not run meanwhile.
    const notificationId = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ids,
      body: 'Hello',
      sendAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await gatherRefusals(deps(), runOf(project, notificationId, ids.slice(0, 3)));
    // A flusher holds these, alive, its lease running for a minute.
    const held = await claimRefusals(deps(), notificationId, { leased: false });
    expect(held.runs).toHaveLength(1);
    await gatherRefusals(deps(), runOf(project, notificationId, ids.slice(3)));

    await completeSend(deps(), { _id: notificationId, projectId: project.projectId, status: 'sending' });
    const notification = await deps().models.Notification.findById(notificationId).lean();
    expect(notification?.status).toBe('completed');
    expect(await unsubscribedOf(project)).toEqual([...ids].sort());
    expect(await loggedOf(notificationId)).toEqual([...ids].sort());
    expect(await flushRefusals(deps(), notificationId)).toBe(0);
  });
});
