import type { Job } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverJobId, type DeliverJobData, type Rejection } from '../../src/queues/deliver.ts';
import type { RefusalWritesJobData } from '../../src/queues/refusal-writes.ts';
import { handOffRefusals, writeHandedRefusals } from '../../src/delivery/handed-refusals.ts';
import { deliveryWorker, type DeliveryWorker } from '../../src/delivery/delivery-worker.ts';
import { createGatewayProvider } from '../../src/gateways/create-gateway-provider.ts';
import { queueProcessors } from '../../src/worker-runtime/processors.ts';
import type { Models } from '../../src/models/index.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

// No deliver worker: the test runs the batch's hand-offs and the refusal-writes jobs itself, in the order it chooses.
const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send'], projects: { project: 'team' } });

// The hand-offs and their writes call no gateway: the provider is there as a deliver worker has one.
let gateways: ReturnType<typeof createGatewayProvider> | undefined;
afterAll(() => gateways?.close());
function worker(): DeliveryWorker {
  gateways ??= createGatewayProvider(harness.config, harness.workers.context.models);
  return deliveryWorker({ ...harness.workers.context, gateways });
}

/** The worker with MongoDB refusing every device update, as a server that went away mid-write. */
function withDeviceUpdatesRefused(of: DeliveryWorker): DeliveryWorker {
  const models = Object.create(of.deps.models, {
    Device: { value: { updateMany: () => Promise.reject(new Error('device update refused')) } },
  }) as Models;
  return { ...of, deps: { ...of.deps, models } };
}

/** A send to `ids` (dead tokens), fanned out into one batch that no worker runs. */
async function heldBatch(ids: string[]): Promise<Job<DeliverJobData>> {
  await registerDevices(
    harness.ingress,
    project,
    ids.map((id) => ({ id, platform: 'android' as const, token: `unregistered-${id}` })),
  );
  const notificationId = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: ids,
    body: 'x',
  });
  return eventually(async () => {
    const job = await harness.workers.context.queues.deliver.getJob(deliverJobId(notificationId, 0));
    expect(job).toBeDefined();
    return job as Job<DeliverJobData>;
  });
}

const rejections = (ids: string[]): Rejection[] =>
  ids.map((id) => ({ deviceId: id, pushToken: `unregistered-${id}`, reason: 'registration-token-not-registered' }));

/** Hands off `ids` as refused by the batch's run at save `saves`, at `at`; answers the refusal-writes job queued. */
async function handOff(batch: Job<DeliverJobData>, saves: number, ids: string[], at: Date) {
  batch.data = { ...batch.data, saves };
  await handOffRefusals(worker(), batch, { rejected: rejections(ids), failed: [], at });
  const job = await harness.workers.context.queues.deliver.getJob(`${batch.id}-r${saves}`);
  expect(job?.name).toBe(`refusals:${batch.data.notificationId}`);
  return job as Job<RefusalWritesJobData>;
}

const devices = (ids: string[]) =>
  harness.workers.context.models.Device.find({ projectId: project.projectId, deviceId: { $in: ids } })
    .sort({ deviceId: 1 })
    .lean();
const logged = (notificationId: string) =>
  harness.workers.context.models.DeliveryLog.countDocuments({ notificationId, outcome: 'unsubscribed' });
const refusalKeys = (notificationId: string) =>
  harness.workers.context.redis.keys(`${harness.config.queuePrefix}:refusals:{${notificationId}}*`);

describe('refused devices handed off by delivery runs', () => {
  it('are written together by the first job due, at the earliest refusal; the later job writes none again', async () => {
    const batch = await heldBatch(['early-1', 'early-2', 'late-1', 'late-2']);
    const { notificationId } = batch.data;
    const earlier = new Date(Date.now() - 5000);
    const first = await handOff(batch, 0, ['early-1', 'early-2'], earlier);
    const second = await handOff(batch, 1, ['late-1', 'late-2'], new Date());
    // Each is a child of the send, which so completes only once they are written.
    expect(first.parentKey).toBe(batch.parentKey);
    expect(second.parentKey).toBe(batch.parentKey);
    // Left unwritten (a job failed for good), they leave Redis after a week.
    const [pending] = await refusalKeys(notificationId);
    const week = 7 * 24 * 3600 * 1000;
    expect(await harness.workers.context.redis.pttl(pending!)).toBeGreaterThan(week - 60_000);

    await writeHandedRefusals(worker(), first);
    const written = await devices(['early-1', 'early-2', 'late-1', 'late-2']);
    expect(written.map((device) => [device.isSubscribed, device.unsubscribedAt?.getTime()])).toEqual(
      Array(4).fill([false, earlier.getTime()]),
    );
    expect(await logged(notificationId)).toBe(4);

    await writeHandedRefusals(worker(), second);
    expect(await logged(notificationId)).toBe(4);
    expect(await refusalKeys(notificationId)).toEqual([]);
  });

  it('a job that took hand-offs and failed writes them on its rerun; no other job takes them meanwhile', async () => {
    const batch = await heldBatch(['kept-1', 'kept-2']);
    const { notificationId } = batch.data;
    const first = await handOff(batch, 0, ['kept-1'], new Date());
    const second = await handOff(batch, 1, ['kept-2'], new Date());

    await expect(writeHandedRefusals(withDeviceUpdatesRefused(worker()), first)).rejects.toThrow(
      /device update refused/,
    );
    await writeHandedRefusals(worker(), second);
    expect((await devices(['kept-1', 'kept-2'])).map((device) => device.isSubscribed)).toEqual([true, true]);

    await writeHandedRefusals(worker(), first);
    expect((await devices(['kept-1', 'kept-2'])).map((device) => device.isSubscribed)).toEqual([false, false]);
    expect(await refusalKeys(notificationId)).toEqual([]);
  });

  it('a job BullMQ fails unrun (stalled too often) gives up no device; its hand-offs wait for a replay', async () => {
    const batch = await heldBatch(['unrun-1']);
    const { notificationId } = batch.data;
    const job = await handOff(batch, 0, ['unrun-1'], new Date());
    const before = (await readNotification(harness.ingress, project, notificationId)).stats;

    // What the deliver worker does for a job BullMQ failed without running it (start-worker.ts).
    const processor = (await queueProcessors.deliver())(harness.workers.context);
    try {
      await processor.failedUnrun!(job);
    } finally {
      await processor.close?.();
    }
    expect((await readNotification(harness.ingress, project, notificationId)).stats).toEqual(before);
    expect(await refusalKeys(notificationId)).toHaveLength(1);

    await writeHandedRefusals(worker(), job);
    expect((await devices(['unrun-1'])).map((device) => device.isSubscribed)).toEqual([false]);
  });
});
