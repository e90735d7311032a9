import { DelayedError, type Job, type Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import type { OutgoingPush, PushOutcome } from '../gateways/gateway.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import { renderContent, type MessageContent } from '../rendering/message-content.ts';
import { personalizationScope } from '../rendering/personalization-scope.ts';
import { recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed, type Rejection } from '../devices/mark-unsubscribed.ts';
import { deliverJobId, emptyTally, type DeliverJobData, type DeliveryTally } from './deliver-job.ts';
import { PreparedNotifications, type PreparedNotification } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { isFirstRunOfBatch } from './batch-attempts.ts';
import { emptyDeliveryCounts, recordDeliveryMetrics } from '../metrics/delivery-metrics.ts';

/** Rounds of resending the devices a gateway asked to retry (429, 5xx, network) before they count as failed. */
export const maxRetryRounds = 6;
const retryBaseMs = 1000;

export function retryDelayMs(round: number, retryAfterMs: number): number {
  return Math.max(retryAfterMs, retryBaseMs * 2 ** (round - 1));
}

interface Rendered {
  device: BatchDevice;
  content: MessageContent;
}

function render(notification: PreparedNotification, device: BatchDevice): Rendered | null {
  try {
    return { device, content: renderContent(notification.content, personalizationScope(device, notification.data)) };
  } catch {
    // A template that exceeds the render limits for this device's variables fails this device only.
    return null;
  }
}

function toOutgoing(notification: PreparedNotification, { device, content }: Rendered): OutgoingPush {
  return { token: device.pushToken, platform: device.platform, ...content, data: notification.pushData };
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
    else if (outcome.kind === 'unsubscribed') sorted.rejected.push({ deviceId: device.deviceId, pushToken: device.pushToken, reason: outcome.reason });
    else if (outcome.kind === 'failed') {
      sorted.failed += 1;
      sorted.failedReason ??= outcome.reason;
    }
    else {
      sorted.retry.push(device.deviceId);
      sorted.retryAfterMs = Math.max(sorted.retryAfterMs, outcome.retryAfterMs ?? 0);
    }
  });
  return sorted;
}

/**
 * One delivery batch. Every device of the batch ends in exactly one of sent (history written), unsubscribed or
 * failed, and is then "done": retry rounds skip done devices, and any later run of the batch (a retry, a recovered
 * stalled job, a replay) also skips devices that already have history for the notification, so nothing is sent
 * twice. The batch's counts go to its own delivery-result document before the job's progress is saved.
 */
export function deliverProcessor(context: WorkerContext): Processor<DeliverJobData> {
  const notifications = new PreparedNotifications(context.models);
  const limiter = new DeliveryRateLimiter(context.redis, context.models, context.config.queuePrefix);
  const { History, DeliveryResult } = context.models;
  const prefix = context.config.queuePrefix;

  async function saveProgress(job: Job<DeliverJobData>, done: string[], tally: DeliveryTally, retryRound?: number): Promise<void> {
    const { notificationId, batch } = job.data;
    await DeliveryResult.updateOne({ _id: deliverJobId(notificationId, batch) }, { $set: { notificationId, ...tally } }, { upsert: true });
    await job.updateData({ ...job.data, done, tally, ...(retryRound !== undefined && { retryRound }) });
  }

  async function alreadyDelivered(notificationId: string, batchId: string, devices: BatchDevice[]): Promise<Set<string>> {
    if (await isFirstRunOfBatch(context.redis, prefix, batchId)) return new Set();
    const entries = await History.find({ notificationId, deviceId: { $in: devices.map((device) => device.deviceId) } }, { deviceId: 1 }).lean();
    return new Set(entries.map((entry) => entry.deviceId));
  }

  async function deliver(job: Job<DeliverJobData>, token: string | undefined): Promise<void> {
    const { notificationId, projectId, gateway: gatewayName, batch } = job.data;
    const done = new Set(job.data.done ?? []);
    const pending = job.data.devices.filter((device) => !done.has(device.deviceId));
    if (pending.length === 0) return;

    const waitMs = await limiter.reserve(projectId, pending.length);
    if (waitMs > 0) return delayJob(job, token, waitMs);

    const notification = await notifications.get(notificationId);
    if (!notification) return;
    const tally = { ...(job.data.tally ?? emptyTally()) };
    const delivered = await alreadyDelivered(notificationId, deliverJobId(notificationId, batch), pending);
    // Delivered by a run that stopped before saving its progress: counted now, never sent again.
    tally.sent += delivered.size;

    const toSend = pending.filter((device) => !delivered.has(device.deviceId));
    const rendered = toSend.map((device) => render(notification, device)).filter((push) => push !== null);
    const renderFailures = toSend.length - rendered.length;
    tally.failed += renderFailures;
    const gateway = rendered.length > 0 ? await context.gateways.gatewayFor(projectId, gatewayName) : null;
    const sendStart = performance.now();
    const outcomes = sortOutcomes(rendered, gateway ? await gateway.send(rendered.map((push) => toOutgoing(notification, push))) : []);
    const gatewaySeconds = gateway ? (performance.now() - sendStart) / 1000 : null;

    if (outcomes.failed > 0) context.log.warn({ notificationId, batch, gateway: gatewayName, failed: outcomes.failed, reason: outcomes.failedReason }, 'the gateway refused pushes');
    const now = new Date();
    await recordHistory(context.models, projectId, notification, outcomes.sent, now);
    await markUnsubscribed(context.redis, context.models, prefix, projectId, outcomes.rejected, now);
    tally.sent += outcomes.sent.length;
    tally.unsubscribed += outcomes.rejected.length;
    tally.failed += outcomes.failed;

    const round = (job.data.retryRound ?? 0) + 1;
    const giveUp = round > maxRetryRounds;
    if (giveUp) tally.failed += outcomes.retry.length;
    await recordDeliveryMetrics(context.redis, prefix, gatewayName, {
      sent: outcomes.sent.length,
      failed: renderFailures + outcomes.failed + (giveUp ? outcomes.retry.length : 0),
      unsubscribed: outcomes.rejected.length,
      retried: giveUp ? 0 : outcomes.retry.length,
    }, gatewaySeconds);
    const retrying = new Set(giveUp ? [] : outcomes.retry);
    const nowDone = [...done, ...pending.map((device) => device.deviceId).filter((id) => !retrying.has(id))];
    if (retrying.size === 0) return saveProgress(job, nowDone, tally);
    await saveProgress(job, nowDone, tally, round);
    return delayJob(job, token, retryDelayMs(round, outcomes.retryAfterMs));
  }

  return async (job, token) => {
    try {
      await deliver(job, token);
    } catch (error) {
      if (error instanceof DelayedError || job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
      // The last attempt failed: the devices still pending count as failed so that the notification's stats add up.
      const all = job.data.devices.map((device) => device.deviceId);
      const tally = { ...(job.data.tally ?? emptyTally()) };
      const abandoned = all.length - (job.data.done ?? []).length;
      tally.failed += abandoned;
      await saveProgress(job, all, tally).catch(() => undefined);
      const counts = { ...emptyDeliveryCounts(), failed: abandoned };
      await recordDeliveryMetrics(context.redis, prefix, job.data.gateway, counts, null).catch(() => undefined);
      throw error;
    }
  };
}
