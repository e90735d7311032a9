import { describe, expect, it } from 'vitest';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { deliverJobId, type DeliverJobData } from '../src/queues/deliver.ts';
import { deliverProcessor } from '../src/delivery/deliver-processor.ts';
import { createGatewayProvider } from '../src/gateways/create-gateway-provider.ts';
import { queueNames, type QueueName } from '../src/queues/registry.ts';
import { redisKeys } from '../src/infra/redis-keys.ts';
import {
  registerDevices,
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from './support/delivery-harness.ts';
import { eventually } from './support/eventually.ts';
import { replayFromDashboard as replay } from './support/dashboard.ts';

const adminToken = 'replay-admin-token';
const {
  harness,
  projects: { project },
} = useDeliveryHarness({
  configOverrides: { adminToken },
  queues: ['send', 'deliver', 'maintenance'],
  projects: { project: 'team' },
});

const queues = () => harness.ingress.context.queues;
const history = async (deviceId: string) =>
  (
    await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}/notification-history`, {
      key: project.apiKey,
    })
  ).body.data;

async function replayFromDashboard(queue: QueueName, job: Job): Promise<Job> {
  const target = Object.values(queues()).find((candidate) => candidate.name === queue)!;
  return replay(harness.ingress, adminToken, target, job);
}

async function sendToThree(prefix: string) {
  const devices = [
    { id: `${prefix}-a`, platform: 'android' as const, token: `${prefix}-tok-a` },
    { id: `${prefix}-i`, platform: 'ios' as const, token: `${prefix}-tok-i` },
    { id: `${prefix}-gone`, platform: 'android' as const, token: `unregistered-${prefix}` },
  ];
  await registerDevices(harness.ingress, project, devices);
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: devices.map((device) => device.id),
    body: 'replay me',
  });
  return { id, devices };
}

/** A token the gateway rejected may be tried again by a run that never learnt of the rejection; nothing reaches a phone. */
async function expectDeliveredOnce(prefix: string, id: string, rejectedTokenAttempts = 1) {
  for (const suffix of ['a', 'i']) {
    expect(harness.sandbox.deliveries(`${prefix}-tok-${suffix}`)).toHaveLength(1);
    expect(await history(`${prefix}-${suffix}`)).toHaveLength(1);
  }
  expect(harness.sandbox.attempts(`unregistered-${prefix}`)).toHaveLength(rejectedTokenAttempts);
  expect((await readNotification(harness.ingress, project, id)).stats).toEqual({
    targeted: 3,
    sent: 2,
    failed: 0,
    unsubscribed: 1,
    clicked: 0,
  });
}

describe('replaying jobs from the dashboard', () => {
  it('send: a completed send job replayed sends nothing again and counts nothing twice', async () => {
    const { id } = await sendToThree('send');
    await waitUntilCompleted(harness.ingress, project, id);
    await replayFromDashboard(queueNames.send, (await queues().send.getJob(id))!);
    expect((await readNotification(harness.ingress, project, id)).status).toBe('completed');
    await expectDeliveredOnce('send', id);
  });

  it('deliver: every completed batch replayed sends nothing again and counts nothing twice', async () => {
    const { id } = await sendToThree('batch');
    await waitUntilCompleted(harness.ingress, project, id);
    for (const batch of [0, 1]) {
      await replayFromDashboard(queueNames.deliver, (await queues().deliver.getJob(deliverJobId(id, batch)))!);
    }
    await expectDeliveredOnce('batch', id);
  });

  it('deliver: a batch that failed after the gateway took its pushes but before it saved its progress is replayed without resending', async () => {
    // The deliver worker is paused so that this test's own worker runs the batch and then fails it the way a lost
    // worker's job fails: its history is written, its job data never learnt what was done.
    const deliverWorker = harness.workers.workers.find((worker) => worker.name === queueNames.deliver)!;
    await deliverWorker.pause();
    const manual = new Worker(queueNames.deliver, null, {
      connection: harness.workers.context.redis,
      prefix: redisKeys.queuePrefix(harness.config.queuePrefix, queueNames.deliver),
    });
    const gateways = createGatewayProvider(harness.config, harness.workers.context.models);
    try {
      const { id } = await sendToThree('crash');
      const taken: Job<DeliverJobData>[] = [];
      for (let batch = 0; batch < 2; batch++) {
        const token = `crash-${batch}`;
        const job = (await eventually(async () => {
          const next = await manual.getNextJob(token, { block: false });
          expect(next).toBeDefined();
          return next!;
        })) as Job<DeliverJobData>;
        const asQueued = job.data;
        await deliverProcessor({ ...harness.workers.context, gateways })(job, token);
        await job.updateData(asQueued);
        await job.moveToFailed(new UnrecoverableError('worker lost'), token);
        taken.push(job);
      }
      await deliverWorker.resume();
      await waitUntilCompleted(harness.ingress, project, id);
      for (const job of taken) {
        expect(await job.getState()).toBe('failed');
        await replayFromDashboard(queueNames.deliver, (await queues().deliver.getJob(job.id!))!);
      }
      await expectDeliveredOnce('crash', id, 2);
    } finally {
      deliverWorker.resume();
      await manual.close();
      await gateways.close();
    }
  });
});
