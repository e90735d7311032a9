import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { DelayedError, UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import { deliverJobId, type DeliverJobData } from '../../src/queues/deliver.ts';
import type { ChunkPlan, FanOutProgress } from '../../src/queues/send.ts';
import { deviceKey } from '../../src/models/device.ts';
import { deliverProcessor } from '../../src/delivery/deliver-processor.ts';
import type { DeliverDeps } from '../../src/delivery/delivery-worker.ts';
import { createGatewayProvider } from '../../src/gateways/create-gateway-provider.ts';
import type { GatewayProvider } from '../../src/gateways/gateway.ts';
import { queueNames, type QueueName } from '../../src/infra/queue-names.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import { maxRetryRounds } from '../../src/delivery/retry-rounds.ts';
import { resumableStalls } from '../../src/queues/queue-definition.ts';
import {
  registerDevices,
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';
import { failureOf, historyWritesRefused, takeOverDeliveries } from '../support/manual-deliveries.ts';
import { replayFromDashboard as replay } from '../support/dashboard.ts';

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
    capped: 0,
    clicked: 0,
  });
}

interface ManualDeliverWorker {
  /**
   * Takes the next batch and runs it as a lost worker's run ends: the gateway took its pushes and their history is
   * written, but neither its job data nor its progress learnt what was done. The job stays active, with this worker's lock on it.
   */
  runLosingProgress(token: string): Promise<Job<DeliverJobData>>;
  manual: Worker;
  /** Hands the queue back to the harness's deliver worker. */
  resume(): void;
}

/** Runs `use` with the harness's deliver worker paused and batches taken by this test's own worker. */
async function withManualDeliverWorker(
  options: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'>,
  use: (worker: ManualDeliverWorker) => Promise<void>,
): Promise<void> {
  const deliveries = await takeOverDeliveries(harness, options);
  const gateways = createGatewayProvider(harness.config, harness.workers.context.models);
  const runLosingProgress = async (token: string) => {
    const job = await deliveries.takeNext(token);
    const asQueued = job.data;
    await deliverProcessor({ ...harness.workers.context, gateways })(job, token);
    await job.updateData(asQueued);
    await job.updateProgress(0);
    return job;
  };
  try {
    await use({ runLosingProgress, manual: deliveries.manual, resume: deliveries.resume });
  } finally {
    await deliveries.close();
    await gateways.close();
  }
}

/** A gateway that is down: every push it is handed comes back to be retried. */
const down: GatewayProvider = {
  gatewayFor: () =>
    Promise.resolve({ send: (pushes) => Promise.resolve(pushes.map(() => ({ kind: 'retry', reason: '503' }))) }),
  close: () => Promise.resolve(),
};

/**
 * Queues a job with `queueJob`, which answers its id, and has its worker die under it until BullMQ marks it stalled too
 * often (one job: a job stalled goes back to the head of its queue, and would be taken again before any other); then
 * hands the queue back to the harness's worker, which fails it unrun. `firstRun`, if given, is what the first of those
 * workers does with it before it dies.
 */
async function stallUntilFailedUnrun(
  queue: QueueName,
  queueJob: () => Promise<string>,
  firstRun?: (job: Job, token: string) => Promise<void>,
): Promise<string> {
  const harnessWorker = harness.workers.workers.find((worker) => worker.name === queue)!;
  const target = Object.values(queues()).find((candidate) => candidate.name === queue)!;
  await harnessWorker.pause();
  // A worker whose lock lapses at once on every job it takes, whose stalled-job check hands the job back.
  const dying = new Worker(queue, null, {
    connection: harness.workers.context.redis,
    prefix: redisKeys.queuePrefix(harness.config.queuePrefix, queue),
    lockDuration: 100,
    stalledInterval: 100,
    maxStalledCount: resumableStalls,
  });
  try {
    // The harness worker's stalled check at its start holds off every other check for its 30 s interval.
    await harness.workers.context.redis.del(target.keys['stalled-check']!);
    await dying.startStalledCheckTimer();
    const jobId = await queueJob();
    const stalledOut = async () => (await target.getJob(jobId))?.deferredFailure !== undefined;
    for (let taken = 0; !(await stalledOut()); taken++) {
      expect(taken).toBeLessThan(2 * resumableStalls);
      const token = `dying-${taken}`;
      const job = await eventually(async () => {
        const next = await dying.getNextJob(token, { block: false });
        expect(next?.id).toBe(jobId);
        return next!;
      });
      if (taken === 0 && firstRun) {
        await job.extendLock(token, 10_000);
        await firstRun(job, token);
        await job.extendLock(token, 1);
      }
      await eventually(async () => expect(await job.getState()).toBe('waiting'));
    }
    return jobId;
  } finally {
    harnessWorker.resume();
    await dying.close();
  }
}

describe('replaying jobs from the dashboard', () => {
  it('send: a completed send job replayed sends nothing again and counts nothing twice', async () => {
    const { id } = await sendToThree('send');
    await waitUntilCompleted(harness.ingress, project, id);
    await replayFromDashboard(queueNames.send, (await queues().send.getJob(id))!);
    expect((await readNotification(harness.ingress, project, id)).status).toBe('completed');
    await expectDeliveredOnce('send', id);
  });

  // What a send attempt leaves when it fails between queueing a chunk's batches and saving its progress (MongoDB away):
  // the chunk's plan, saved before its batches were queued; or, from a version that saved no plan, nothing at all.
  const interruptedRuns = {
    // Job.retry can reset the job's count of attempts; the plan still tells that the chunk may have been queued.
    'replayed with its attempts reset, from the plan of the chunk it was queueing': {
      prefix: 'resume-plan',
      progressLeft: (queuing: ChunkPlan): FanOutProgress | undefined => ({
        afterId: null,
        batches: 0,
        targeted: 0,
        finished: false,
        queuing,
      }),
      replay: (send: Job) => send.retry('completed', { resetAttemptsMade: true, resetAttemptsStarted: true }),
    },
    'replayed from the dashboard, queued by a version that saved no chunk plan': {
      prefix: 'resume-legacy',
      progressLeft: () => undefined,
      replay: (send: Job) => replayFromDashboard(queueNames.send, send),
    },
  };

  it.each(Object.entries(interruptedRuns))(
    'send: a fan-out %s, after the batches it queued were delivered and removed, sends nothing again',
    async (_setup, { prefix, progressLeft, replay }) => {
      const devices = [
        { id: `${prefix}-a`, platform: 'android' as const, token: `${prefix}-tok-a` },
        { id: `${prefix}-i`, platform: 'ios' as const, token: `${prefix}-tok-i` },
      ];
      await registerDevices(harness.ingress, project, devices);
      const id = await sendNotification(harness.ingress, project, {
        targetType: 'device',
        targetIds: devices.map((device) => device.id),
        body: 'resume me',
      });
      await waitUntilCompleted(harness.ingress, project, id);
      // By the time the send is replayed its batches have run and been removed.
      const queued = await Promise.all([0, 1].map((batch) => queues().deliver.getJob(deliverJobId(id, batch))));
      const plan: ChunkPlan = {
        untilId: devices.map((device) => deviceKey(project.projectId, device.id)).sort()[1]!,
        gateways: queued.map((job) => job!.data.gateway),
      };
      for (const job of queued) await job!.remove();
      const send = (await queues().send.getJob(id))!;
      await send.updateData({ notificationId: id, projectId: project.projectId, progress: progressLeft(plan) });
      await harness.ingress.context.models.Notification.updateOne({ _id: id }, { $set: { status: 'sending' } });

      await replay(send);
      await waitUntilCompleted(harness.ingress, project, id);
      for (const device of devices) {
        expect(harness.sandbox.deliveries(device.token)).toHaveLength(1);
        expect(await history(device.id)).toHaveLength(1);
      }
      expect(await readNotification(harness.ingress, project, id)).toMatchObject({
        status: 'completed',
        stats: { targeted: 2, sent: 2, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 },
      });
      for (const batch of [0, 1]) {
        expect((await queues().deliver.getJob(deliverJobId(id, batch)))?.data.resumedFanOut).toBe(true);
      }
    },
  );

  it('send: a chunk whose plan was saved but whose batches were never queued counts the devices it sends to, not those it planned', async () => {
    const devices = ['a', 'b', 'i'].map((suffix) => ({
      id: `planned-${suffix}`,
      platform: suffix === 'i' ? ('ios' as const) : ('android' as const),
      token: `planned-tok-${suffix}`,
      tags: { cohort: 'planned' },
    }));
    await registerDevices(harness.ingress, project, devices);
    const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
      key: project.apiKey,
      body: { name: 'planned', match: 'all', conditions: [{ tag: 'cohort', op: 'eq', value: 'planned' }] },
    });
    expect(segment.status).toBe(200);
    const sendWorker = harness.workers.workers.find((worker) => worker.name === queueNames.send)!;
    await sendWorker.pause();
    try {
      const id = await sendNotification(harness.ingress, project, {
        targetType: 'segment',
        targetIds: [segment.body.data.id],
        body: 'as planned',
      });
      // The first attempt saved the plan of its three devices, then failed to queue their batches (Redis away).
      const send = (await queues().send.getJob(id))!;
      await send.updateData({
        ...send.data,
        progress: {
          afterId: null,
          batches: 0,
          targeted: 0,
          finished: false,
          queuing: { untilId: deviceKey(project.projectId, 'planned-i'), gateways: ['fcm', 'apns'] },
        },
      });
      // Before the retry, the iOS device leaves the segment.
      const leaving = await harness.ingress.request(
        'PATCH',
        `/v1/sdk/projects/${project.projectId}/devices/planned-i`,
        {
          key: project.clientKey,
          body: { tags: { cohort: 'left' } },
        },
      );
      expect(leaving.status).toBe(200);
      sendWorker.resume();
      const notification = await waitUntilCompleted(harness.ingress, project, id);
      expect(harness.sandbox.deliveries('planned-tok-i')).toHaveLength(0);
      expect(notification.stats).toEqual({ targeted: 2, sent: 2, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    } finally {
      sendWorker.resume();
    }
  });

  it('deliver: every completed batch replayed sends nothing again and counts nothing twice', async () => {
    const { id } = await sendToThree('batch');
    await waitUntilCompleted(harness.ingress, project, id);
    for (const batch of [0, 1]) {
      await replayFromDashboard(queueNames.deliver, (await queues().deliver.getJob(deliverJobId(id, batch)))!);
    }
    await expectDeliveredOnce('batch', id);
  });

  it("deliver: a gateway that still asks to retry after an attempt's retry rounds fails the attempt, not the pushes: the batch's next attempt delivers them", async () => {
    const deliveries = await takeOverDeliveries(harness);
    try {
      const { id } = await sendToThree('outage');
      for (let batch = 0; batch < 2; batch++) {
        const token = `outage-${batch}`;
        const job = await deliveries.takeNext(token);
        // The attempt's last retry round, so that the test need not wait out the ten before it.
        await job.updateData({ ...job.data, retryRound: maxRetryRounds });
        const failure = await failureOf(deliverProcessor({ ...harness.workers.context, gateways: down })(job, token));
        expect(failure.message).toMatch(/asked to retry [12] pushes in every retry round/);
        await job.moveToFailed(failure, token);
        expect(await job.getState()).toBe('delayed');
      }
      expect((await readNotification(harness.ingress, project, id)).stats).toMatchObject({ sent: 0, failed: 0 });
      // Those attempts ended with their progress saved: the next looks up no history, as it would after a crash.
      const historyLookups = vi.spyOn(harness.workers.context.models.History, 'find');
      onTestFinished(() => historyLookups.mockRestore());
      deliveries.resume();
      await waitUntilCompleted(harness.ingress, project, id);
      expect(historyLookups).not.toHaveBeenCalled();
      await expectDeliveredOnce('outage', id);
    } finally {
      await deliveries.close();
    }
  });

  it('deliver: a batch BullMQ fails unrun, its workers having died under it too often, counts its devices failed, and a replay delivers them', async () => {
    await registerDevices(harness.ingress, project, [{ id: 'stalled-a', platform: 'android', token: 'stalled-tok' }]);
    let id = '';
    const batch = await stallUntilFailedUnrun(queueNames.deliver, async () => {
      id = await sendNotification(harness.ingress, project, {
        targetType: 'device',
        targetIds: ['stalled-a'],
        body: 'stalled',
      });
      return deliverJobId(id, 0);
    });
    await eventually(async () =>
      expect((await readNotification(harness.ingress, project, id)).stats).toMatchObject({
        targeted: 1,
        sent: 0,
        failed: 1,
      }),
    );
    await replayFromDashboard(queueNames.deliver, (await queues().deliver.getJob(batch))!);
    await eventually(async () =>
      expect((await readNotification(harness.ingress, project, id)).stats).toMatchObject({ sent: 1, failed: 0 }),
    );
    expect(harness.sandbox.deliveries('stalled-tok')).toHaveLength(1);
  });

  it('deliver: a batch failed unrun writes what its last run sent but could not record (MongoDB away), as a rerun would', async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'unrec-a', platform: 'android', token: 'unrec-tok-a' },
      { id: 'unrec-b', platform: 'android', token: 'unrec-tok-b' },
    ]);
    const { models } = harness.workers.context;
    const gateways = createGatewayProvider(harness.config, models);
    try {
      let id = '';
      await stallUntilFailedUnrun(
        queueNames.deliver,
        async () => {
          id = await sendNotification(harness.ingress, project, {
            targetType: 'device',
            targetIds: ['unrec-a', 'unrec-b'],
            body: 'recorded by the give-up',
          });
          return deliverJobId(id, 0);
        },
        // The gateway takes both pushes, then MongoDB refuses their history, and the worker dies.
        async (job, token) =>
          expect(
            deliverProcessor({ ...harness.workers.context, models: historyWritesRefused(models), gateways })(
              job as Job<DeliverJobData>,
              token,
            ),
          ).rejects.toThrow('history write refused'),
      );
      await eventually(async () => expect(await history('unrec-a')).toHaveLength(1));
      expect(await history('unrec-b')).toHaveLength(1);
      expect((await readNotification(harness.ingress, project, id)).stats).toMatchObject({
        targeted: 2,
        sent: 2,
        failed: 0,
      });
      for (const token of ['unrec-tok-a', 'unrec-tok-b']) expect(harness.sandbox.deliveries(token)).toHaveLength(1);
    } finally {
      await gateways.close();
    }
  });

  it('send: a send BullMQ fails unrun is failed, where it stayed queued for good', async () => {
    const id = await stallUntilFailedUnrun(queueNames.send, async () => (await sendToThree('send-stalled')).id);
    await eventually(async () => expect((await readNotification(harness.ingress, project, id)).status).toBe('failed'));
  });

  it('deliver: a batch whose last attempt gave up, replayed once the fault is gone, delivers to the devices it had counted failed', async () => {
    const deliveries = await takeOverDeliveries(harness);
    /** Takes the next batch and runs it as its last attempt with `deps`, which fail it with `reason`. */
    const failLastAttempt = async (token: string, deps: DeliverDeps, reason: string) => {
      const job = await deliveries.takeNext(token);
      job.attemptsMade = job.opts.attempts! - 1;
      const failure = await failureOf(deliverProcessor(deps)(job, token));
      expect(failure.message).toBe(reason);
      await job.moveToFailed(failure, token);
      expect(await job.getState()).toBe('failed');
    };
    // The fault: every gateway call throws.
    const unreachable: GatewayProvider = {
      gatewayFor: () => Promise.reject(new Error('gateway unreachable')),
      close: () => Promise.resolve(),
    };
    // A replay's own failure before it reopens the devices given up: reading the notification is refused.
    const { models } = harness.workers.context;
    const unreadable = Object.create(models, {
      Notification: { value: { findById: () => ({ lean: () => Promise.reject(new Error('read refused')) }) } },
    }) as typeof models;
    try {
      const { id } = await sendToThree('gave-up');
      for (let batch = 0; batch < 2; batch++)
        await failLastAttempt(
          `gave-up-${batch}`,
          { ...harness.workers.context, gateways: unreachable },
          'gateway unreachable',
        );
      const givenUp = await waitUntilCompleted(harness.ingress, project, id);
      expect(givenUp.stats).toEqual({ targeted: 3, sent: 0, failed: 3, unsubscribed: 0, capped: 0, clicked: 0 });
      for (let batch = 0; batch < 2; batch++) {
        await (await queues().deliver.getJob(deliverJobId(id, batch)))!.retry('failed');
        const gateways = createGatewayProvider(harness.config, models);
        await failLastAttempt(
          `replay-${batch}`,
          { ...harness.workers.context, models: unreadable, gateways },
          'read refused',
        );
        await gateways.close();
      }
      expect((await readNotification(harness.ingress, project, id)).stats.failed).toBe(3);

      // A replay while the gateway still asks to retry: the devices it sends again stay counted failed meanwhile.
      const first = (await queues().deliver.getJob(deliverJobId(id, 0)))!;
      await first.retry('failed');
      const stillDown = await deliveries.takeNext('still-down');
      const waiting = await failureOf(
        deliverProcessor({ ...harness.workers.context, gateways: down })(stillDown, 'still-down'),
      );
      expect(waiting).toBeInstanceOf(DelayedError);
      expect((await readNotification(harness.ingress, project, id)).stats).toEqual({
        targeted: 3,
        sent: 0,
        failed: 3,
        unsubscribed: 0,
        capped: 0,
        clicked: 0,
      });

      deliveries.resume();
      await replayFromDashboard(queueNames.deliver, (await queues().deliver.getJob(deliverJobId(id, 1)))!);
      await eventually(async () => expect(await first.getState()).toBe('completed'));
      await expectDeliveredOnce('gave-up', id);
    } finally {
      await deliveries.close();
    }
  });

  it('deliver: a batch that failed after the gateway took its pushes but before it saved its progress is replayed without resending', async () => {
    await withManualDeliverWorker({}, async ({ runLosingProgress, resume }) => {
      const { id } = await sendToThree('crash');
      const taken: Job<DeliverJobData>[] = [];
      for (let batch = 0; batch < 2; batch++) {
        const token = `crash-${batch}`;
        const job = await runLosingProgress(token);
        await job.moveToFailed(new UnrecoverableError('worker lost'), token);
        taken.push(job);
      }
      await resume();
      await waitUntilCompleted(harness.ingress, project, id);
      for (const job of taken) {
        expect(await job.getState()).toBe('failed');
        await replayFromDashboard(queueNames.deliver, (await queues().deliver.getJob(job.id!))!);
      }
      await expectDeliveredOnce('crash', id, 2);
    });
  });

  it('deliver: a batch whose worker died after the gateway took its pushes but before it saved its progress is recovered without resending', async () => {
    await withManualDeliverWorker({ stalledInterval: 300 }, async ({ runLosingProgress, manual, resume }) => {
      const { id } = await sendToThree('stall');
      // Each run holds its lock while it runs, as a live worker does (a run whose lock lapses stops before its next
      // gateway call), then dies: its lock lapses with its job neither finished nor extended, and BullMQ's
      // stalled-job recovery puts the batch back in the queue, as it does for the batches of a worker killed mid-run.
      for (let batch = 0; batch < 2; batch++) {
        const token = `stall-${batch}`;
        const job = await runLosingProgress(token);
        await job.extendLock(token, 1);
      }
      // The deliver worker's stalled check at its start holds off every other check for its 30 s interval.
      await harness.workers.context.redis.del(queues().deliver.keys['stalled-check']!);
      await manual.startStalledCheckTimer();
      // Resuming the deliver worker starts its stalled check again: only once both batches are back in the queue.
      await eventually(async () => {
        for (const batch of [0, 1]) expect(await queues().deliver.getJobState(deliverJobId(id, batch))).toBe('waiting');
      });
      await resume();
      await waitUntilCompleted(harness.ingress, project, id);
      for (const batch of [0, 1]) {
        expect((await queues().deliver.getJob(deliverJobId(id, batch)))?.stalledCounter).toBe(1);
      }
      await expectDeliveredOnce('stall', id, 2);
    });
  });
});
