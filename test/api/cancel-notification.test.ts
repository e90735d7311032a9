import { describe, expect, it, onTestFinished } from 'vitest';
import { queueNames } from '../../src/infra/queue-names.ts';
import { deliverJobId } from '../../src/queues/deliver.ts';
import { startMongoGate } from '../support/mongo-gate.ts';
import { startTestWorkers } from '../support/workers.ts';
import { eventually } from '../support/eventually.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

const {
  harness,
  projects: { project, other },
} = useDeliveryHarness({ projects: { project: 'team', other: 'team' } });

const send = (body: unknown) => sendNotification(harness.ingress, project, body);
const cancel = (id: string, owner = project) =>
  harness.ingress.request('POST', `/v1/projects/${owner.projectId}/notifications/${id}/cancel`, { key: owner.apiKey });
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const queues = () => harness.workers.context.queues;

describe('POST /notifications/{id}/cancel', () => {
  it('cancels a scheduled send: nothing goes out at its time', async () => {
    await registerDevices(harness.ingress, project, [{ id: 'planned', platform: 'android', token: 'cancel-planned' }]);
    const canceledId = await send({
      targetType: 'device',
      targetIds: ['planned'],
      body: 'never',
      sendAt: inSeconds(3),
    });

    const answer = await cancel(canceledId);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: canceledId,
      status: 'canceled',
      stats: { targeted: 0, sent: 0, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 },
    });
    expect(await queues().send.getJob(canceledId)).toBeUndefined();

    // A send scheduled just after the canceled one shows when the canceled one would have gone out.
    const laterId = await send({ targetType: 'device', targetIds: ['planned'], body: 'later', sendAt: inSeconds(3.5) });
    await waitUntilCompleted(harness.ingress, project, laterId);
    expect(
      harness.sandbox.deliveries('cancel-planned').map((delivery) => (delivery.payload as any).notification.body),
    ).toEqual(['later']);
    expect((await readNotification(harness.ingress, project, canceledId)).status).toBe('canceled');
  });

  it('answers canceled again for a canceled send, 400 for one that went out, 404 for another project', async () => {
    await registerDevices(harness.ingress, project, [{ id: 'sent-once', platform: 'android', token: 'cancel-sent' }]);
    const scheduled = await send({
      targetType: 'device',
      targetIds: ['sent-once'],
      body: 'x',
      sendAt: inSeconds(3600),
    });
    expect((await cancel(scheduled)).status).toBe(200);
    const again = await cancel(scheduled);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('canceled');

    const sent = await send({ targetType: 'device', targetIds: ['sent-once'], body: 'y' });
    await waitUntilCompleted(harness.ingress, project, sent);
    const late = await cancel(sent);
    expect(late.status).toBe(400);
    expect(late.body.error).toEqual({
      code: 'invalid_request',
      message: 'The notification is completed; only a queued, scheduled or sending one can be canceled.',
      details: [{ path: '/params/notificationId', message: 'is completed, not queued or sending' }],
    });
    expect((await readNotification(harness.ingress, project, sent)).status).toBe('completed');

    expect((await cancel(scheduled, other)).status).toBe(404);
    expect((await cancel('no-such-notification')).status).toBe(404);
  });

  it('a cancel that lands while a worker starts the send wins: nothing is queued for delivery', async () => {
    await registerDevices(harness.ingress, project, [{ id: 'raced', platform: 'android', token: 'cancel-raced' }]);
    const sendWorker = harness.workers.workers.find((worker) => worker.name === queueNames.send)!;
    await sendWorker.pause();
    onTestFinished(() => sendWorker.resume());
    const gate = await startMongoGate(harness.config.mongoUrl);
    onTestFinished(() => gate.close());
    const gatedWorker = await startTestWorkers({ ...harness.config, mongoUrl: gate.url }, ['send']);
    onTestFinished(() => gatedWorker.close());

    // The worker has read the notification as queued and is about to mark it sending with its first count.
    gate.hold('update', 'notifications');
    const id = await send({ targetType: 'device', targetIds: ['raced'], body: 'too late to stop?' });
    await eventually(() => expect(gate.held()).toBe(1));
    const answer = await cancel(id);
    expect(answer.status).toBe(200);
    gate.release();

    await eventually(async () => expect(await queues().send.getJobState(id)).toBe('completed'));
    expect((await readNotification(harness.ingress, project, id)).status).toBe('canceled');
    expect(await queues().deliver.getJob(deliverJobId(id, 0))).toBeUndefined();
    expect(harness.sandbox.deliveries('cancel-raced')).toEqual([]);
  });
});
