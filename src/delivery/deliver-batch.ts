import { DelayedError, type Job, type Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import type { OutgoingPush, PushOutcome } from '../gateways/gateway.ts';
import { renderContent, type MessageContent } from '../rendering/message-content.ts';
import { personalizationScope } from '../rendering/personalization-scope.ts';
import { recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed, type Rejection } from '../devices/mark-unsubscribed.ts';
import { emptyTally, type DeliverJobData, type DeliveryTally } from './deliver-job.ts';
import { PreparedNotifications, type PreparedNotification } from './prepared-notification.ts';
import { DeliveryRateLimiter } from './delivery-rate-limiter.ts';

/** Rounds of resending the devices a gateway asked to retry (429, 5xx, network) before they count as failed. */
export const maxRetryRounds = 6;
const retryBaseMs = 1000;

export function retryDelayMs(round: number, retryAfterMs: number): number {
  return Math.max(retryAfterMs, retryBaseMs * 2 ** (round - 1));
}

interface TargetDevice {
  deviceId: string;
  platform: 'android' | 'ios' | 'web';
  pushToken: string;
  userId?: string | null;
  tags?: Record<string, unknown> | null;
}

type RenderedPush = { device: TargetDevice; content: MessageContent } | { device: TargetDevice; error: string };

function render(notification: PreparedNotification, device: TargetDevice): RenderedPush {
  try {
    return { device, content: renderContent(notification.content, personalizationScope(device, notification.data)) };
  } catch (error) {
    // A template that exceeds the render limits for this device's variables fails this device only.
    return { device, error: (error as Error).message };
  }
}

function toOutgoing(notification: PreparedNotification, device: TargetDevice, content: MessageContent): OutgoingPush {
  return { token: device.pushToken, platform: device.platform, ...content, data: notification.pushData };
}

function sleepUntilRetry(job: Job, token: string | undefined, delayMs: number): Promise<never> {
  return job.moveToDelayed(Date.now() + delayMs, token).then(() => {
    throw new DelayedError();
  });
}

/**
 * One delivery batch. Every device of the batch ends in exactly one of sent (history written), unsubscribed, failed
 * or gone, and is then "done": retries, replays and stalled-job recovery skip done devices and any device that
 * already has history for the notification, so nothing is sent twice. The batch's counts are written to its own
 * delivery-result document before the job's progress, so a crash in between is repaired by the next attempt.
 */
export function deliverProcessor(context: WorkerContext): Processor<DeliverJobData> {
  const notifications = new PreparedNotifications(context.models);
  const limiter = new DeliveryRateLimiter(context.redis, context.models, context.config.queuePrefix);
  const { Device, History, DeliveryResult } = context.models;

  async function saveProgress(job: Job<DeliverJobData>, done: string[], tally: DeliveryTally, retryRound: number | undefined): Promise<void> {
    const { notificationId, batch } = job.data;
    await DeliveryResult.updateOne({ notificationId, batch }, { $set: tally }, { upsert: true });
    await job.updateData({ ...job.data, done, tally, ...(retryRound !== undefined && { retryRound }) });
  }

  async function deliver(job: Job<DeliverJobData>, token: string | undefined): Promise<void> {
    const { notificationId, projectId, gateway: gatewayName } = job.data;
    const done = new Set(job.data.done ?? []);
    const pending = job.data.deviceIds.filter((id) => !done.has(id));
    if (pending.length === 0) return;

    const waitMs = await limiter.reserve(projectId, pending.length);
    if (waitMs > 0) return sleepUntilRetry(job, token, waitMs);

    const notification = await notifications.get(notificationId);
    if (!notification) return;
    const [devices, delivered] = await Promise.all([
      Device.find({ projectId, deviceId: { $in: pending }, isSubscribed: true }, { deviceId: 1, platform: 1, pushToken: 1, userId: 1, tags: 1 }).lean<TargetDevice[]>(),
      History.find({ notificationId, deviceId: { $in: pending } }, { deviceId: 1 }).lean(),
    ]);
    const tally = { ...(job.data.tally ?? emptyTally()) };
    const alreadySent = new Set(delivered.map((entry) => entry.deviceId));
    // Delivered by an attempt that stopped before saving its progress: counted now, never sent again.
    tally.sent += alreadySent.size;

    const rendered = devices.filter((device) => !alreadySent.has(device.deviceId)).map((device) => render(notification, device));
    const sendable = rendered.flatMap((push) => ('content' in push ? [push] : []));
    tally.failed += rendered.length - sendable.length;
    const gateway = sendable.length > 0 ? await context.gateways.gatewayFor(projectId, gatewayName) : null;
    const outcomes: PushOutcome[] = gateway ? await gateway.send(sendable.map((push) => toOutgoing(notification, push.device, push.content))) : [];

    const sent: DeliveredPush[] = [];
    const rejected: Rejection[] = [];
    const retry: string[] = [];
    let retryAfterMs = 0;
    outcomes.forEach((outcome, index) => {
      const { device, content } = sendable[index]!;
      if (outcome.kind === 'sent') sent.push({ deviceId: device.deviceId, content });
      else if (outcome.kind === 'unsubscribed') rejected.push({ deviceId: device.deviceId, pushToken: device.pushToken, reason: outcome.reason });
      else if (outcome.kind === 'failed') tally.failed += 1;
      else {
        retry.push(device.deviceId);
        retryAfterMs = Math.max(retryAfterMs, outcome.retryAfterMs ?? 0);
      }
    });
    const now = new Date();
    await recordHistory(context.models, projectId, notification, sent, now);
    await markUnsubscribed(context.redis, context.models, context.config.queuePrefix, projectId, rejected, now);
    tally.sent += sent.length;
    tally.unsubscribed += rejected.length;

    const round = (job.data.retryRound ?? 0) + 1;
    const giveUp = retry.length > 0 && round > maxRetryRounds;
    if (giveUp) tally.failed += retry.length;
    const retrying = new Set(giveUp ? [] : retry);
    const nowDone = [...done, ...pending.filter((id) => !retrying.has(id))];
    await saveProgress(job, nowDone, tally, retrying.size > 0 ? round : undefined);
    if (retrying.size > 0) return sleepUntilRetry(job, token, retryDelayMs(round, retryAfterMs));
  }

  return async (job, token) => {
    try {
      await deliver(job, token);
    } catch (error) {
      if (error instanceof DelayedError || job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
      // The last attempt failed: the devices still pending count as failed so the notification's stats add up.
      const done = job.data.done ?? [];
      const tally = { ...(job.data.tally ?? emptyTally()) };
      tally.failed += job.data.deviceIds.length - done.length;
      await saveProgress(job, job.data.deviceIds, tally, undefined).catch(() => undefined);
      throw error;
    }
  };
}
