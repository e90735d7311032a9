import { describe, expect, it } from 'vitest';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { deviceKey } from '../../src/models/device.ts';
import { deliverJobId } from '../../src/queues/deliver.ts';
import { gatewayCallSize } from '../../src/delivery/delivery-run.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { pastSameInterrupt } from '../support/interrupts.ts';
import { useWorkerProcesses } from '../support/gated-worker-processes.ts';
import type { NodeProcess } from '../support/child-processes.ts';
import { ConnectionString } from 'mongodb-connection-string-url';
import { commandAnswerBoundMs } from '../../src/infra/mongo.ts';

// Fan-out runs in this process; every delivery runs in worker processes started by the tests.
const { harness } = useDeliveryHarness({ queues: ['send'] });
// The worker processes reach MongoDB through the gate, so that a test can hold a batch at one write.
const processes = useWorkerProcesses(harness);
const deliverQueue = () => harness.ingress.context.queues.deliver;
const deliverWorker = (env: Record<string, string> = {}) => processes.start('deliver', { env });

async function insertDevices(project: CreatedProject, count: number, users: number): Promise<void> {
  const now = new Date();
  const documents = Array.from({ length: count }, (_, index) => ({
    _id: deviceKey(project.projectId, `d${index}`),
    projectId: project.projectId,
    deviceId: `d${index}`,
    platform: index % 2 === 0 ? 'android' : 'ios',
    pushToken: `${project.projectId}-${index}`,
    userId: `u${index % users}`,
    tags: {},
    isSubscribed: true,
    createdAt: now,
    updatedAt: now,
  }));
  await harness.ingress.context.models.Device.insertMany(documents, { ordered: false, lean: true });
}

describe('horizontal deliver workers', () => {
  it('two worker processes share one large send and every device gets exactly one push', async () => {
    const workers = [
      await deliverWorker({ DELIVER_CONCURRENCY: '2' }),
      await deliverWorker({ DELIVER_CONCURRENCY: '2' }),
    ];
    const project = await harness.ingress.createProject('team');
    const devices = 2400;
    await insertDevices(project, devices, 100);
    const userIds = Array.from({ length: 100 }, (_, index) => `u${index}`);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: userIds,
      body: 'hello everyone',
    });
    const notification = await waitUntilCompleted(harness.ingress, project, id, 90_000);
    expect(notification.stats, workers.map((worker) => worker.output()).join('\n')).toEqual({
      targeted: devices,
      sent: devices,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });

    const received = harness.sandbox
      .deliveries()
      .filter((delivery) => delivery.token.startsWith(`${project.projectId}-`));
    expect(received).toHaveLength(devices);
    expect(new Set(received.map((delivery) => delivery.token)).size).toBe(devices);

    const batches = await deliverQueue().getJobs(['completed']);
    const ranBy = new Set(
      batches.filter((job) => job.data.notificationId === id).map((job) => job.processedBy?.split(':').pop()),
    );
    expect(ranBy).toEqual(new Set(workers.map((worker) => String(worker.pid))));
  }, 120_000);
});

/**
 * A batch whose pushes went out but which is still running: the gate holds its history insert, made after the gateway
 * call. Its rejected device is handed off to a refusal job once the run goes on, so that a send completes only with a
 * worker running to write it.
 */
async function batchHeldAfterSending(prefix: string) {
  const project = await harness.ingress.createProject('team');
  const devices = [
    { id: `${prefix}-1`, platform: 'android' as const, token: `${prefix}-tok-1` },
    { id: `${prefix}-2`, platform: 'android' as const, token: `${prefix}-tok-2` },
    { id: `${prefix}-gone`, platform: 'android' as const, token: `unregistered-${prefix}` },
  ];
  await registerDevices(harness.ingress, project, devices);
  processes.gate().hold('insert', 'history');
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: devices.map((device) => device.id),
    body: 'once',
  });
  const batch = deliverJobId(id, 0);
  await eventually(async () => {
    for (const token of [`${prefix}-tok-1`, `${prefix}-tok-2`])
      expect(harness.sandbox.deliveries(token)).toHaveLength(1);
    expect(await deliverQueue().getJobState(batch)).toBe('active');
    expect(processes.gate().held()).toBe(1);
  });
  return {
    project,
    id,
    batch,
    release: () => processes.gate().release(),
    async expectDeliveredOnce() {
      const notification = await waitUntilCompleted(harness.ingress, project, id, 20_000);
      expect(notification.stats).toEqual({ targeted: 3, sent: 2, failed: 0, unsubscribed: 1, capped: 0, clicked: 0 });
      for (const token of [`${prefix}-tok-1`, `${prefix}-tok-2`])
        expect(harness.sandbox.deliveries(token)).toHaveLength(1);
      expect(await harness.ingress.context.models.History.countDocuments({ notificationId: id })).toBe(2);
      const gone = await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${prefix}-gone`, {
        key: project.apiKey,
      });
      expect(gone.body.data.isSubscribed).toBe(false);
    },
  };
}

async function killHard(worker: NodeProcess): Promise<void> {
  worker.child.kill('SIGKILL');
  expect((await worker.exited).signal).toBe('SIGKILL');
}

/** The batch's last run was this worker's. */
async function expectLastRunBy(batch: string, worker: NodeProcess): Promise<void> {
  expect((await deliverQueue().getJob(batch))!.processedBy).toMatch(new RegExp(`:${worker.pid}$`));
}

describe('worker shutdown and crashes', () => {
  it('SIGTERM: the worker finishes its active batch, then exits', async () => {
    const worker = await deliverWorker();
    const held = await batchHeldAfterSending('term');
    worker.child.kill('SIGTERM');
    await held.release();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(await deliverQueue().getJobState(held.batch)).toBe('completed');
    // The refused device, handed off as the batch finished, is written by a worker still running.
    await deliverWorker();
    await held.expectDeliveredOnce();
    await expectLastRunBy(held.batch, worker);
  });

  it('SIGTERM: a batch still running after the grace period is handed to another worker, without sending twice', async () => {
    const first = await deliverWorker({ WORKER_SHUTDOWN_GRACE_MS: '200' });
    const held = await batchHeldAfterSending('grace');
    const signalledAt = Date.now();
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(3000);
    await held.release();
    const second = await deliverWorker();
    await held.expectDeliveredOnce();
    await expectLastRunBy(held.batch, second);
  });

  it('one Ctrl-C heard twice at once (npm passes it on, the terminal sends it too): the worker finishes its batch, then exits', async () => {
    const worker = await deliverWorker();
    const held = await batchHeldAfterSending('heard-twice');
    // The second as soon as the first is handled (two sent together would reach it as one pending signal).
    worker.child.stdout!.on('data', function heardOnce(chunk: Buffer) {
      if (!chunk.toString().includes('finishing active jobs')) return;
      worker.child.stdout!.off('data', heardOnce);
      worker.child.kill('SIGINT');
    });
    worker.child.kill('SIGINT');
    await eventually(() => expect(worker.output().match(/finishing active jobs/g)).toHaveLength(1));
    await held.release();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    await deliverWorker();
    await held.expectDeliveredOnce();
    await expectLastRunBy(held.batch, worker);
  });

  it('Ctrl-C twice: the worker exits at once, and its active batch goes to another worker and is sent once', async () => {
    const first = await deliverWorker();
    const held = await batchHeldAfterSending('interrupted');
    first.child.kill('SIGINT');
    await eventually(() => expect(first.output()).toContain('finishing active jobs'));
    await pastSameInterrupt(Date.now());
    const interruptedAgainAt = Date.now();
    first.child.kill('SIGINT');
    expect((await first.exited).code).toBe(130);
    // Well inside the default 30 s grace that a single Ctrl-C waits for.
    expect(Date.now() - interruptedAgainAt).toBeLessThan(3000);
    await held.release();
    const second = await deliverWorker();
    await held.expectDeliveredOnce();
    await expectLastRunBy(held.batch, second);
  });

  it('kill -9 mid-batch: another worker recovers the batch, loses nothing and sends nothing twice', async () => {
    const first = await deliverWorker();
    const held = await batchHeldAfterSending('kill');
    await killHard(first);
    await held.release();
    const second = await deliverWorker();
    await held.expectDeliveredOnce();
    await expectLastRunBy(held.batch, second);
  });

  it('a run whose lock lapsed stops before its next gateway call: the run that recovered its batch sends the rest, once', async () => {
    const project = await harness.ingress.createProject('team');
    // Two batches (Android and iOS) of two gateway calls each.
    const devices = 4 * gatewayCallSize;
    await insertDevices(project, devices, 1);
    processes.gate().hold('insert', 'history');
    const first = await deliverWorker({ DELIVER_CONCURRENCY: '1' });
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'userId',
      targetIds: ['u0'],
      body: 'one call each',
    });
    const received = () =>
      harness.sandbox.deliveries().filter((delivery) => delivery.token.startsWith(`${project.projectId}-`));
    // The first call of the first batch went out and its history is held. The run's lock then lapses, as it does when
    // Redis, or the process, is away for longer than the lock lasts; stalled-job recovery hands the batch on.
    await eventually(async () => {
      expect(processes.gate().held()).toBe(1);
      expect(received()).toHaveLength(gatewayCallSize);
    });
    // The batch a worker took (of the two, by their ids). On a loaded machine its 1.5 s lock may have lapsed by itself
    // already, the job gone back to waiting: deleting the lock then changes nothing.
    const batches = await Promise.all([0, 1].map((batch) => deliverQueue().getJob(deliverJobId(id, batch))));
    expect(batches.every((job) => job !== undefined)).toBe(true);
    const running = batches.find((job) => job!.attemptsStarted > 0)!;
    await harness.ingress.context.redis.del(redisKeys.jobLock(running.queueQualifiedName, running.id!));
    await processes.start('deliver', { direct: true });
    const notification = await waitUntilCompleted(harness.ingress, project, id, 20_000);
    expect(notification.stats).toEqual({
      targeted: devices,
      sent: devices,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });

    // The first run goes on once its history is written and stops before its second call; whichever way it ends,
    // BullMQ then finds the job's lock missing and says so.
    processes.gate().release();
    await eventually(() => expect(first.output()).toContain(`Missing lock for job ${running.id}`));
    expect(received()).toHaveLength(devices);
    expect(new Set(received().map((delivery) => delivery.token)).size).toBe(devices);
  });

  it('kill -9 twice: a batch whose workers die under it twice is recovered again and delivered once', async () => {
    const first = await deliverWorker();
    const held = await batchHeldAfterSending('twice');
    await killHard(first);
    // The gate still holds the step: the worker that recovers the batch stops there too, and dies as well.
    const second = await deliverWorker();
    await eventually(async () => {
      await expectLastRunBy(held.batch, second);
      expect(processes.gate().held()).toBe(1);
    }, 20_000);
    await killHard(second);
    await held.release();
    const third = await deliverWorker();
    await held.expectDeliveredOnce();
    await expectLastRunBy(held.batch, third);
  });
});

describe('a MongoDB-wire server that stops answering', () => {
  it('a command it took and never answers ends the run at the answer bound; the batch runs again, its attempt unspent, and delivers once', async () => {
    // Every connection waits at most this long for an answer, unless its URL sets its own; the worker's here sets 2 s,
    // so that the test need not wait a minute.
    expect(harness.ingress.context.models.Device.db.getClient().options.socketTimeoutMS).toBe(commandAnswerBoundMs);
    const url = new ConnectionString(processes.gate().url);
    url.searchParams.set('socketTimeoutMS', '2000');
    await deliverWorker({ MONGODB_URL: url.toString() });
    const held = await batchHeldAfterSending('silent');
    // Its lock still renewed by a live process, the batch would stay active for good.
    processes.gate().forget();
    await held.expectDeliveredOnce();
    expect((await deliverQueue().getJob(held.batch))!.attemptsMade).toBe(1);
  });
});
