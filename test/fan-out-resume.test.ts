import { expect, it } from 'vitest';
import { deviceKey } from '../src/models/device.ts';
import { deliverJobId } from '../src/queues/deliver.ts';
import { deliveryBatchSize } from '../src/delivery/send-processor.ts';
import { sendNotification, useDeliveryHarness, waitUntilCompleted } from './support/delivery-harness.ts';
import { eventually } from './support/eventually.ts';
import { useWorkerProcesses } from './support/gated-worker-processes.ts';

// Deliveries run in this process; each fan-out runs in a send worker process started by the test.
const { harness } = useDeliveryHarness({ queues: ['deliver'] });
// The first send worker reaches MongoDB through the gate, so that the test can stop it between two steps of a chunk.
const processes = useWorkerProcesses(harness);

it('a fan-out killed after queueing a chunk, before saving its progress, resumes without losing a device when the chunk has changed meanwhile', async () => {
  const project = await harness.ingress.createProject('team');
  const count = 2 * deliveryBatchSize;
  const id = (index: number) => `d${String(index).padStart(4, '0')}`;
  const now = new Date();
  await harness.ingress.context.models.Device.insertMany(
    Array.from({ length: count }, (_, index) => ({
      _id: deviceKey(project.projectId, id(index)),
      projectId: project.projectId,
      deviceId: id(index),
      platform: index === 10 ? 'ios' : 'android',
      pushToken: `${project.projectId}-${id(index)}`,
      tags: { plan: 'pro' },
      isSubscribed: true,
      createdAt: now,
      updatedAt: now,
    })),
    { lean: true },
  );
  const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
    key: project.apiKey,
    body: { name: 'pro', match: 'all', conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }] },
  });
  expect(segment.status).toBe(200);

  // The first chunk's count is the fan-out's next write after queueing its batches, and the one before its progress.
  const gate = processes.gate();
  gate.hold('update', 'notifications');
  const first = await processes.start('send');
  const notificationId = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segment.body.data.id],
    body: 'everyone once',
  });
  const deliverQueue = harness.ingress.context.queues.deliver;
  await eventually(async () => {
    expect(gate.held()).toBe(1);
    for (const batch of [0, 1])
      expect(await deliverQueue.getJobState(deliverJobId(notificationId, batch))).toBe('completed');
  }, 20_000);

  // Meanwhile the first chunk's one iOS device leaves the segment: a chunk cut anew would reach one device further,
  // and have one batch fewer.
  const leaving = await harness.ingress.request('PATCH', `/v1/sdk/projects/${project.projectId}/devices/${id(10)}`, {
    key: project.clientKey,
    body: { tags: { plan: 'free' } },
  });
  expect(leaving.status).toBe(200);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  gate.release();
  await processes.start('send', { direct: true });

  const notification = await waitUntilCompleted(harness.ingress, project, notificationId, 30_000);
  const received = new Map<string, number>();
  for (const delivery of harness.sandbox.deliveries()) {
    if (delivery.token.startsWith(`${project.projectId}-`))
      received.set(delivery.token, (received.get(delivery.token) ?? 0) + 1);
  }
  const missed = Array.from({ length: count }, (_, index) => `${project.projectId}-${id(index)}`).filter(
    (token) => received.get(token) !== 1,
  );
  expect(missed).toEqual([]);
  expect(notification.stats).toEqual({ targeted: count, sent: count, failed: 0, unsubscribed: 0, clicked: 0 });
  // Only the chunk the first worker may have queued looks its devices up in history before sending.
  expect((await deliverQueue.getJob(deliverJobId(notificationId, 2)))?.data.resumedFanOut).toBeUndefined();
}, 60_000);
