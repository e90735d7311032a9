import { DelayedError, type Job, type Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import type { OutgoingPush, PushOutcome } from '../gateways/gateway.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import { renderContent, type MessageContent } from '../rendering/message-content.ts';
import { personalizationScope } from '../rendering/personalization-scope.ts';
import { deliveredDevices, recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed, type Rejection } from '../devices/mark-unsubscribed.ts';
import { deliverJobId, type DeliverJobData, type UnrecordedOutcomes } from './deliver-job.ts';
import { PreparedNotifications, type PreparedNotification } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { endBatchRun, startBatchRun } from './batch-attempts.ts';
import { RetryRound } from './retry-rounds.ts';
import { recordDeliveryMetrics } from '../metrics/delivery-metrics.ts';
import { OutcomeTally } from './outcome-tally.ts';

interface Rendered {
  device: BatchDevice;
  content: MessageContent;
}

function render(notification: PreparedNotification, device: BatchDevice): Rendered | null {
  try {
    return {
      device,
      content: renderContent(
        notification.content,
        personalizationScope(device, notification.data, notification.entryEvent),
      ),
    };
  } catch {
    // A template that exceeds the render limits for this device's variables fails this device only.
    return null;
  }
}

function toOutgoing(notification: PreparedNotification, { device, content }: Rendered): OutgoingPush {
  const push: OutgoingPush = {
    token: device.pushToken,
    platform: device.platform,
    ...content,
    data: notification.pushData,
    collapseId: notification.id,
  };
  if (device.webPushKeys) push.webPushKeys = device.webPushKeys;
  return push;
}

async function delayJob(job: Job, token: string | undefined, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}

interface Outcomes {
  sent: DeliveredPush[];
  rejected: Rejection[];
  failed: number;
  /** One of the reasons, for the log: the operator sees why without a line per device. */
  failedReason: string | null;
  retry: string[];
  retryAfterMs: number;
}

function sortOutcomes(rendered: Rendered[], outcomes: PushOutcome[]): Outcomes {
  const sorted: Outcomes = { sent: [], rejected: [], failed: 0, failedReason: null, retry: [], retryAfterMs: 0 };
  outcomes.forEach((outcome, index) => {
    const { device, content } = rendered[index]!;
    if (outcome.kind === 'sent') sorted.sent.push({ deviceId: device.deviceId, content });
    else if (outcome.kind === 'unsubscribed')
      sorted.rejected.push({ deviceId: device.deviceId, pushToken: device.pushToken, reason: outcome.reason });
    else if (outcome.kind === 'failed') {
      sorted.failed += 1;
      sorted.failedReason ??= outcome.reason;
    } else {
      sorted.retry.push(device.deviceId);
      sorted.retryAfterMs = Math.max(sorted.retryAfterMs, outcome.retryAfterMs ?? 0);
    }
  });
  return sorted;
}

/**
 * Pushes handed to the gateway in one call. The outcomes of each call are saved in the job (Redis) before anything
 * else happens, so a run that dies (kill -9) or loses MongoDB repeats at most the one call that was in flight: with
 * neither FCM nor APNs taking an idempotency key, that is the limit of "exactly once" (docs/operations.md, Shutdown and crashes).
 * Smaller calls narrow that window; each call costs one job-data write.
 */
export const gatewayCallSize = 100;

function byDeviceId(devices: BatchDevice[]): Map<string, BatchDevice> {
  return new Map(devices.map((device) => [device.deviceId, device]));
}

/**
 * One delivery batch. Every device of the batch ends in exactly one of sent (history written), unsubscribed or
 * failed, and is then "done": retry rounds skip done devices; outcomes saved in the job but not yet in MongoDB are
 * written by the next run, not sent again; and a run after an unclean end (a recovered stalled job, a failed attempt)
 * or with fresh job data (a replay) also skips devices that already have history for the notification. The batch's
 * counts go to its own delivery-result document before the job's progress is saved.
 */
export function deliverProcessor(context: WorkerContext): Processor<DeliverJobData> {
  const notifications = new PreparedNotifications(context.models);
  const limiter = new DeliveryRateLimiter(context.redis, context.models, context.config.queuePrefix);
  const { DeliveryResult } = context.models;
  const prefix = context.config.queuePrefix;

  async function saveProgress(
    job: Job<DeliverJobData>,
    done: string[],
    outcomes: OutcomeTally,
    retryRound?: number,
  ): Promise<void> {
    const { notificationId, batch } = job.data;
    const tally = outcomes.saved();
    await DeliveryResult.updateOne(
      { _id: deliverJobId(notificationId, batch) },
      { $set: { notificationId, ...tally } },
      { upsert: true },
    );
    await job.updateData({ ...job.data, done, tally, retryRound, unrecorded: undefined });
  }

  async function alreadyDelivered(
    job: Job<DeliverJobData>,
    batchId: string,
    devices: BatchDevice[],
  ): Promise<Set<string>> {
    const previous = await startBatchRun(context.redis, prefix, batchId);
    const progressKnown = job.data.tally !== undefined;
    if (previous === 'none' || (previous === 'clean' && progressKnown)) return new Set();
    return deliveredDevices(
      context.models,
      job.data.notificationId,
      devices.map((device) => device.deviceId),
    );
  }

  async function recordOutcomes(
    projectId: string,
    notification: PreparedNotification,
    sent: DeliveredPush[],
    rejected: Rejection[],
    at: Date,
  ): Promise<void> {
    await recordHistory(context.models, projectId, notification, sent, at);
    await markUnsubscribed(context.models, projectId, rejected, at);
  }

  /**
   * A previous run saved a gateway call's outcomes but stopped before writing them to MongoDB (the outage of a
   * MongoDB server, a kill): they are written now (both writes are idempotent), and those pushes are not sent again.
   * The tally in the job already counts them.
   */
  async function recordUnrecorded(
    job: Job<DeliverJobData>,
    notification: PreparedNotification,
    unrecorded: UnrecordedOutcomes,
  ): Promise<void> {
    const devices = byDeviceId(job.data.devices);
    const sent = unrecorded.sent
      .map((deviceId) => render(notification, devices.get(deviceId)!))
      .filter((push) => push !== null)
      .map(({ device, content }) => ({ deviceId: device.deviceId, content }));
    await recordOutcomes(job.data.projectId, notification, sent, unrecorded.rejected, new Date(unrecorded.at));
    await saveProgress(job, job.data.done ?? [], new OutcomeTally(job.data.tally), job.data.retryRound);
  }

  async function deliver(job: Job<DeliverJobData>, token: string | undefined): Promise<void> {
    const { notificationId, projectId, gateway: gatewayName, batch } = job.data;
    const notification = await notifications.get(notificationId);
    if (!notification) return;
    if (job.data.unrecorded) await recordUnrecorded(job, notification, job.data.unrecorded);

    const done = new Set(job.data.done ?? []);
    const pending = job.data.devices.filter((device) => !done.has(device.deviceId));
    if (pending.length === 0) return;

    const waitMs = await limiter.reserve(projectId, pending.length);
    if (waitMs > 0) return delayJob(job, token, waitMs);

    const tally = new OutcomeTally(job.data.tally);
    const reportMetrics = (gatewaySeconds: number | null) =>
      recordDeliveryMetrics(context.redis, prefix, gatewayName, tally.takeUnreported(), gatewaySeconds);
    const batchId = deliverJobId(notificationId, batch);
    const delivered = await alreadyDelivered(job, batchId, pending);
    // Delivered by a run that stopped before saving its progress: counted now, never sent again.
    tally.countSentEarlier(delivered.size);
    for (const deviceId of delivered) done.add(deviceId);

    const toSend = pending.filter((device) => !delivered.has(device.deviceId));
    const rendered: Rendered[] = [];
    for (const device of toSend) {
      const push = render(notification, device);
      if (push !== null) rendered.push(push);
      else {
        tally.count('failed', 1);
        done.add(device.deviceId);
      }
    }
    if (rendered.length < toSend.length) await reportMetrics(null);

    const round = new RetryRound(job.data.retryRound);
    const gateway = rendered.length > 0 ? await context.gateways.gatewayFor(projectId, gatewayName) : null;
    for (let start = 0; gateway && start < rendered.length; start += gatewayCallSize) {
      const call = rendered.slice(start, start + gatewayCallSize);
      const sendStart = performance.now();
      const outcomes = sortOutcomes(call, await gateway.send(call.map((push) => toOutgoing(notification, push))));
      const gatewaySeconds = (performance.now() - sendStart) / 1000;

      const refusals = round.refused(outcomes.retry, outcomes.retryAfterMs);
      const again = new Set(refusals.again);
      tally.count('sent', outcomes.sent.length);
      tally.count('unsubscribed', outcomes.rejected.length);
      tally.count('failed', outcomes.failed + refusals.failed.length);
      tally.count('retried', again.size);
      for (const { device } of call) if (!again.has(device.deviceId)) done.add(device.deviceId);
      const unrecorded: UnrecordedOutcomes = {
        sent: outcomes.sent.map((push) => push.deviceId),
        rejected: outcomes.rejected,
        at: Date.now(),
      };
      // Redis first: from here on a rerun writes these outcomes instead of sending the pushes again.
      await job.updateData({ ...job.data, done: [...done], tally: tally.saved(), unrecorded });

      if (outcomes.failed > 0)
        context.log.warn(
          { notificationId, batch, gateway: gatewayName, failed: outcomes.failed, reason: outcomes.failedReason },
          'the gateway refused pushes',
        );
      await recordOutcomes(projectId, notification, outcomes.sent, outcomes.rejected, new Date(unrecorded.at));
      await reportMetrics(gatewaySeconds);
    }

    const next = round.next();
    await saveProgress(job, [...done], tally, next?.retryRound);
    await endBatchRun(context.redis, prefix, batchId);
    if (next) return delayJob(job, token, next.delayMs);
  }

  return async (job, token) => {
    try {
      await deliver(job, token);
    } catch (error) {
      if (error instanceof DelayedError || job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
      // The last attempt failed: the devices still pending count as failed so that the notification's stats add up.
      const all = job.data.devices.map((device) => device.deviceId);
      const tally = new OutcomeTally(job.data.tally);
      tally.count('failed', all.length - (job.data.done ?? []).length);
      await saveProgress(job, all, tally).catch(() => undefined);
      await recordDeliveryMetrics(context.redis, prefix, job.data.gateway, tally.takeUnreported(), null).catch(
        () => undefined,
      );
      throw error;
    }
  };
}
