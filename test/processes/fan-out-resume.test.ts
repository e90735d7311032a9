import { expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { deliverJobId } from '../../src/queues/deliver.ts';
import { deliveryBatchSize } from '../../src/fan-out/batch-fan-out.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { useWorkerProcesses } from '../support/gated-worker-processes.ts';
import { ConnectionString } from 'mongodb-connection-string-url';

// Deliveries run in this process; each fan-out runs in a send worker process started by the test.
const { harness } = useDeliveryHarness({ queues: ['deliver'] });
// The first send worker reaches MongoDB through the gate, so that the test can stop it between two steps of a chunk.
const processes = useWorkerProcesses(harness);

/** The project's segment of the devices tagged plan pro. */
async function proSegment(project: CreatedProject): Promise<string> {
  const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
    key: project.apiKey,
    body: { name: 'pro', match: 'all', conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }] },
  });
  expect(segment.status).toBe(200);
  return segment.body.data.id;
}

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
  const segmentId = await proSegment(project);

  // The first worker is let through its first chunk's count and held at its second's: by then the first chunk's
  // batches are queued, and delivered here.
  const gate = processes.gate();
  gate.hold('update', 'notifications');
  const first = await processes.start('send');
  const notificationId = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segmentId],
    body: 'everyone once',
  });
  await eventually(() => expect(gate.held()).toBe(1), 20_000);
  gate.release();
  gate.hold('update', 'notifications');
  const deliverQueue = harness.ingress.context.queues.deliver;
  const firstChunk = [0, 1].map((batch) => deliverJobId(notificationId, batch));
  await eventually(async () => {
    expect(gate.held()).toBe(1);
    for (const batch of firstChunk) expect(await deliverQueue.getJobState(batch)).toBe('completed');
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
  // What a worker killed between queueing the first chunk's batches and saving its progress leaves: the chunk's plan.
  const sendJob = (await harness.ingress.context.queues.send.getJob(notificationId))!;
  const queued = await Promise.all(firstChunk.map((batch) => deliverQueue.getJob(batch)));
  const plan = {
    untilId: deviceKey(project.projectId, id(deliveryBatchSize - 1)),
    gateways: queued.map((job) => job!.data.gateway),
  };
  await sendJob.updateData({
    ...sendJob.data,
    progress: { afterId: null, batches: 0, targeted: 0, finished: false, queuing: plan },
  });
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
  expect(notification.stats).toEqual({
    targeted: count,
    sent: count,
    failed: 0,
    unsubscribed: 0,
    capped: 0,
    clicked: 0,
  });
  // Only the chunk the first worker may have queued looks its devices up in history before sending.
  expect((await deliverQueue.getJob(deliverJobId(notificationId, 2)))?.data.resumedFanOut).toBeUndefined();
}, 60_000);

it('a send is counted and shown sending before any of its batches can deliver, so it never shows deliveries while queued or more sent than targeted', async () => {
  const project = await harness.ingress.createProject('team');
  await registerDevices(
    harness.ingress,
    project,
    ['a', 'b', 'c'].map((name) => ({
      id: `count-${name}`,
      platform: 'android',
      token: `count-${name}`,
      userId: 'counted',
    })),
  );
  const gate = processes.gate();
  // The fan-out's first write to its notification.
  gate.hold('update', 'notifications');
  await processes.start('send');
  const notificationId = await sendNotification(harness.ingress, project, {
    targetType: 'userId',
    targetIds: ['counted'],
    body: 'counted first',
  });
  await eventually(() => expect(gate.held()).toBe(1), 20_000);
  // Held at that write, the fan-out has handed nothing to the deliver queue, so no gateway can have been called.
  expect(await harness.ingress.context.queues.deliver.getJob(deliverJobId(notificationId, 0))).toBeUndefined();
  expect(await readNotification(harness.ingress, project, notificationId)).toMatchObject({
    status: 'queued',
    stats: { targeted: 0, sent: 0 },
  });
  gate.release();

  const notification = await waitUntilCompleted(harness.ingress, project, notificationId, 30_000);
  expect(notification.stats).toMatchObject({ targeted: 3, sent: 3 });
}, 60_000);

it("waits past the answer bound for a segment's first batch, which the server gathers before it answers: the send is not failed as unreachable and read again", async () => {
  const project = await harness.ingress.createProject('team');
  await registerDevices(
    harness.ingress,
    project,
    ['a', 'b', 'c'].map((name) => ({
      id: `scan-${name}`,
      platform: 'android',
      token: `scan-${name}`,
      tags: { plan: 'pro' },
    })),
  );
  const segmentId = await proSegment(project);
  // The worker's every other command waits at most 1 s for its answer; the gate plays a server still gathering the
  // segment's matches, holding the cursor's first read.
  const answerBoundMs = 1000;
  const url = new ConnectionString(processes.gate().url);
  url.searchParams.set('socketTimeoutMS', String(answerBoundMs));
  processes.gate().hold('find', 'devices');
  await processes.start('send', { env: { MONGODB_URL: url.toString() } });
  const notificationId = await sendNotification(harness.ingress, project, {
    targetType: 'segment',
    targetIds: [segmentId],
    body: 'after a long scan',
  });
  await eventually(() => expect(processes.gate().held()).toBe(1), 20_000);
  // Nothing happens while the server gathers, so only the clock can show that the worker still waits: at the ordinary
  // bound its connection would have closed, and the gate would hold nothing.
  await new Promise((resolve) => setTimeout(resolve, 3 * answerBoundMs));
  expect(processes.gate().held()).toBe(1);
  processes.gate().release();

  const notification = await waitUntilCompleted(harness.ingress, project, notificationId, 30_000);
  expect(notification.stats).toMatchObject({ targeted: 3, sent: 3, failed: 0 });
  const tokens = harness.sandbox.deliveries().map((delivery) => delivery.token);
  expect(tokens.filter((token) => token.startsWith('scan-')).sort()).toEqual(['scan-a', 'scan-b', 'scan-c']);
}, 60_000);
