import { DelayedError, type Job } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { GatewayProvider, OutgoingPush, PushGateway, PushOutcome } from '../gateways/gateway.ts';
import type { BatchDevice } from '../targets/target-device.ts';
import { deliveredDevices, recordHistory, type DeliveredPush } from '../history/record-history.ts';
import { markUnsubscribed, type Rejection } from '../devices/mark-unsubscribed.ts';
import { recordDeliveryMetrics } from '../metrics/delivery-metrics.ts';
import { deliverJobId, type DeliverJobData, type UnrecordedOutcomes } from '../queues/deliver.ts';
import type { PreparedNotification, PreparedNotifications } from './prepared-notification.ts';
import type { DeliveryRateLimiter } from './delivery-rate-limiter.ts';
import { isLastAttempt, mayFollowAnInterruptedRun } from './interrupted-runs.ts';
import { waitOutStorageOutage } from './storage-outages.ts';
import { delayRun } from './delay-run.ts';
import { assertLockHeld, LostLockError } from './lost-lock.ts';
import { RetriesExhaustedError, RetryRound } from './retry-rounds.ts';
import { OutcomeTally } from './outcome-tally.ts';
import { renderPushes, type Rendered } from './render-pushes.ts';

/**
 * Pushes handed to the gateway in one call. The outcomes of each call are saved in the job (Redis) before anything
 * else happens, so a run that dies (kill -9) or loses MongoDB repeats at most the one call that was in flight: with
 * neither FCM nor APNs taking an idempotency key, that is the limit of "exactly once" (docs/operations.md, Shutdown and crashes).
 * Smaller calls narrow that window; each call costs one job-data write.
 */
export const gatewayCallSize = 100;

/** The deliver worker's deps: the only ones with push gateway clients. */
export type DeliverDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'log' | 'renderer'> & {
  gateways: GatewayProvider;
};

/** What the runs of one deliver worker share: its deps, and caches that last from job to job. */
export interface DeliveryWorker {
  deps: DeliverDeps;
  notifications: PreparedNotifications;
  limiter: DeliveryRateLimiter;
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

/** One gateway call's answers, by what each device needs next. */
interface CallOutcomes {
  sent: DeliveredPush[];
  rejected: Rejection[];
  failed: number;
  /** One of the reasons, for the log: the operator sees why without a line per device. */
  failedReason: string | null;
  retry: string[];
  retryAfterMs: number;
}

function sortOutcomes(rendered: Rendered[], outcomes: PushOutcome[]): CallOutcomes {
  const sorted: CallOutcomes = { sent: [], rejected: [], failed: 0, failedReason: null, retry: [], retryAfterMs: 0 };
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
 * One run of a delivery batch. Every device of the batch ends in exactly one of sent (history written), unsubscribed
 * or failed, and is then "done": retry rounds skip done devices; outcomes saved in the job but not yet in MongoDB are
 * written by the next run, not sent again; and a run after an unclean end (a recovered stalled job, a failed attempt)
 * or of a batch queued again by a resumed fan-out also skips devices that already have history for the notification.
 * The batch's counts go to its own delivery-result document before the job's progress is saved.
 */
export class DeliveryRun {
  private readonly worker: DeliveryWorker;
  private readonly job: Job<DeliverJobData>;
  private readonly token: string | undefined;
  private readonly done: Set<string>;
  /**
   * Devices a last attempt gave up and a replay sends again: they stay counted failed, so that the notification's
   * stats add up while the replay runs, until each has its outcome.
   */
  private readonly givenUp: Set<string>;
  private readonly tally: OutcomeTally;
  private readonly round: RetryRound;
  /** Devices still refused in the last retry round of this attempt: pending, for the next attempt. */
  private exhausted = 0;

  constructor(worker: DeliveryWorker, job: Job<DeliverJobData>, token: string | undefined) {
    this.worker = worker;
    this.job = job;
    this.token = token;
    this.done = new Set(job.data.done ?? []);
    this.givenUp = new Set(job.data.gaveUp ?? []);
    this.tally = new OutcomeTally(job.data.tally);
    this.round = new RetryRound(job.data.retryRound);
  }

  async run(): Promise<void> {
    try {
      await this.deliver();
    } catch (error) {
      // The run that has the job now owns its progress and its counts.
      if (error instanceof LostLockError) throw error;
      await waitOutStorageOutage(this.job, this.token, error);
      if (error instanceof DelayedError || !isLastAttempt(this.job)) throw error;
      await this.giveUp().catch(() => undefined);
      throw error;
    }
  }

  private async deliver(): Promise<void> {
    const notification = await this.worker.notifications.get(this.job.data.notificationId);
    if (!notification) return;
    if (this.job.data.unrecorded) await this.recordUnrecorded(notification, this.job.data.unrecorded);
    for (const deviceId of this.givenUp) this.done.delete(deviceId);

    const pending = this.job.data.devices.filter((device) => !this.done.has(device.deviceId));
    if (pending.length === 0) return;
    const rendered = await this.render(notification, await this.skipDelivered(pending));
    if (rendered.length > 0) await this.send(notification, rendered);
    await this.finish();
  }

  /**
   * Waits, as a delayed job, while the project's delivery rate has no room for the next gateway call. What this run
   * did is saved first; devices a gateway asked to retry go with the next run.
   */
  private async pace(messages: number): Promise<void> {
    const waitMs = await this.worker.limiter.reserve(this.job.data.projectId, messages);
    if (waitMs === 0) return;
    // The round stays: devices refused in this run wait as long as their round says, but only a run that reaches the
    // end of the batch moves the round on, so pacing does not spend the rounds a refused device has left.
    const retry = this.round.next();
    await this.saveProgress([...this.done], this.tally, this.job.data.retryRound);
    await this.delay(Math.max(waitMs, retry?.delayMs ?? 0));
  }

  /**
   * Delivered by an earlier run that stopped before saving its progress, or by an earlier job of this batch that a
   * resumed fan-out queued again after it was removed: counted now, never sent again. Only such runs look history up
   * (src/delivery/interrupted-runs.ts); a batch's first run, and the retry rounds of a batch never interrupted, skip
   * a look-up of up to a batch of history entries, which held the worker's slots when a gateway refused many pushes.
   */
  private async skipDelivered(pending: BatchDevice[]): Promise<BatchDevice[]> {
    if (!this.job.data.resumedFanOut && !mayFollowAnInterruptedRun(this.job, this.job.data.attemptsEndedClean))
      return pending;
    const { deps } = this.worker;
    const delivered = await deliveredDevices(
      deps.models,
      this.job.data.notificationId,
      pending.map((device) => device.deviceId),
    );
    this.tally.countSentEarlier(delivered.size);
    for (const deviceId of delivered) this.settle(deviceId);
    return pending.filter((device) => !delivered.has(device.deviceId));
  }

  /**
   * Each device's content; a device whose rendering fails is failed and done, and the run logs how many of how many
   * failed and the first reason: a template too costly for every device fails them all, a starved worker a few.
   */
  private async render(notification: PreparedNotification, devices: BatchDevice[]): Promise<Rendered[]> {
    const {
      rendered,
      failed: unrendered,
      failedReason: reason,
    } = await renderPushes(this.worker.deps.renderer, this.job.data.projectId, notification, devices);
    this.tally.count('failed', unrendered.length);
    for (const device of unrendered) this.settle(device.deviceId);
    if (unrendered.length > 0) {
      const { notificationId, batch } = this.job.data;
      const failed = unrendered.length;
      this.worker.deps.log.warn(
        { notificationId, batch, failed, devices: devices.length, reason },
        'the message could not be rendered',
      );
      await this.reportMetrics(this.tally, null);
    }
    return rendered;
  }

  private async send(notification: PreparedNotification, rendered: Rendered[]): Promise<void> {
    const { projectId, gateway: gatewayName } = this.job.data;
    const gateway = await this.worker.deps.gateways.gatewayFor(projectId, gatewayName);
    const callSize = await this.worker.limiter.callSize(projectId, gatewayCallSize);
    for (let start = 0; start < rendered.length; start += callSize) {
      const call = rendered.slice(start, start + callSize);
      await this.pace(call.length);
      await this.sendCall(gateway, notification, call);
    }
  }

  private async sendCall(gateway: PushGateway, notification: PreparedNotification, call: Rendered[]): Promise<void> {
    await assertLockHeld(this.worker.deps.redis, this.job, this.token);
    const sendStart = performance.now();
    const outcomes = sortOutcomes(call, await gateway.send(call.map((push) => toOutgoing(notification, push))));
    const gatewaySeconds = (performance.now() - sendStart) / 1000;

    const refusals = this.round.refused(outcomes.retry, outcomes.retryAfterMs);
    const pending = new Set(outcomes.retry);
    this.exhausted += refusals.exhausted.length;
    this.tally.count('sent', outcomes.sent.length);
    this.tally.count('unsubscribed', outcomes.rejected.length);
    this.tally.count('failed', outcomes.failed);
    this.tally.count('retried', outcomes.retry.length);
    for (const { device } of call) if (!pending.has(device.deviceId)) this.settle(device.deviceId);
    const unrecorded: UnrecordedOutcomes = {
      sent: outcomes.sent.map((push) => push.deviceId),
      rejected: outcomes.rejected,
      at: Date.now(),
    };
    // Reported before they are saved, so that every outcome a rerun finds saved was reported: a rerun that records
    // them (the run stopped at MongoDB) reports nothing, where reporting after the writes lost them from the metrics.
    await this.reportMetrics(this.tally, gatewaySeconds).catch((error: unknown) =>
      this.worker.deps.log.warn({ err: error }, 'the delivery metrics could not be counted'),
    );
    // Redis first: from here on a rerun writes these outcomes instead of sending the pushes again.
    await this.job.updateData({ ...this.job.data, done: [...this.done], tally: this.tally.saved(), unrecorded });

    if (outcomes.failed > 0) {
      const { notificationId, batch, gateway: gatewayName } = this.job.data;
      this.worker.deps.log.warn(
        { notificationId, batch, gateway: gatewayName, failed: outcomes.failed, reason: outcomes.failedReason },
        'the gateway refused pushes',
      );
    }
    await this.recordOutcomes(notification, outcomes.sent, outcomes.rejected, new Date(unrecorded.at));
  }

  /**
   * Saves the progress, and schedules the next retry round if a device is to be sent again; past the last round, fails
   * the attempt, whose successor starts the rounds again.
   */
  private async finish(): Promise<void> {
    const next = this.round.next();
    if (this.exhausted === 0) {
      await this.saveProgress([...this.done], this.tally, next?.retryRound);
      if (next) await this.delay(next.delayMs);
      return;
    }
    // The attempt ends with its progress saved: the next one need not look up history as after a crash.
    const attemptsEndedClean = (this.job.data.attemptsEndedClean ?? 0) + 1;
    await this.saveProgress([...this.done], this.tally, undefined, { attemptsEndedClean });
    throw new RetriesExhaustedError(this.job.data.gateway, this.exhausted);
  }

  /**
   * A previous run saved a gateway call's outcomes but stopped before writing them to MongoDB (the outage of a
   * MongoDB server, a kill): they are written now (both writes are idempotent), and those pushes are not sent again.
   * The tally in the job already counts them.
   */
  private async recordUnrecorded(notification: PreparedNotification, unrecorded: UnrecordedOutcomes): Promise<void> {
    await this.writeUnrecorded(notification, unrecorded);
    await this.saveProgress([...this.done], this.tally, this.job.data.retryRound);
  }

  private async writeUnrecorded(notification: PreparedNotification, unrecorded: UnrecordedOutcomes): Promise<void> {
    const devices = new Map(this.job.data.devices.map((device) => [device.deviceId, device]));
    const { rendered } = await renderPushes(
      this.worker.deps.renderer,
      this.job.data.projectId,
      notification,
      unrecorded.sent.map((deviceId) => devices.get(deviceId)!),
      { alreadySent: true },
    );
    const sent = rendered.map(({ device, content }) => ({ deviceId: device.deviceId, content }));
    await this.recordOutcomes(notification, sent, unrecorded.rejected, new Date(unrecorded.at));
  }

  /** The device has its outcome, counted; one given up is no longer counted failed for that. */
  private settle(deviceId: string): void {
    this.done.add(deviceId);
    if (this.givenUp.delete(deviceId)) this.tally.reopenFailed(1);
  }

  private async recordOutcomes(
    notification: PreparedNotification,
    sent: DeliveredPush[],
    rejected: Rejection[],
    at: Date,
  ): Promise<void> {
    const { models } = this.worker.deps;
    await recordHistory(models, this.job.data.projectId, notification, sent, at);
    await markUnsubscribed(models, this.job.data.projectId, rejected, at);
  }

  /** Saves the batch's counts and its progress; outcomes left unrecorded go, unless kept. */
  private async saveProgress(
    done: string[],
    tally: OutcomeTally,
    retryRound: number | undefined,
    kept: Pick<DeliverJobData, 'gaveUp' | 'unrecorded' | 'attemptsEndedClean'> = {},
  ): Promise<void> {
    const { notificationId } = this.job.data;
    const saved = tally.saved();
    await this.worker.deps.models.DeliveryResult.updateOne(
      { _id: this.batchId() },
      { $set: { notificationId, ...saved } },
      { upsert: true },
    );
    await this.job.updateData({
      ...this.job.data,
      done,
      tally: saved,
      retryRound,
      unrecorded: undefined,
      gaveUp: this.givenUp.size > 0 ? [...this.givenUp] : undefined,
      ...kept,
    });
  }

  private async reportMetrics(tally: OutcomeTally, gatewaySeconds: number | null): Promise<void> {
    await recordDeliveryMetrics(this.worker.deps, this.job.data.gateway, tally.takeUnreported(), gatewaySeconds);
  }

  /**
   * The last attempt failed: the devices still pending by the progress saved in the job count as failed, so that the
   * notification's stats add up, and are kept as given up, for a replay to try again. Outcomes a run saved but did not
   * write to MongoDB are written now if they can be, and else kept for the replay to write.
   */
  async giveUp(): Promise<void> {
    const unrecorded = await this.writeLeftUnrecorded();
    const all = this.job.data.devices.map((device) => device.deviceId);
    const done = new Set(this.job.data.done ?? []);
    // Devices given up before, and not sent since by a replay, are still counted failed: counted once.
    const before = new Set(this.job.data.gaveUp ?? []);
    const newlyGivenUp = all.filter((deviceId) => !done.has(deviceId) && !before.has(deviceId));
    const tally = new OutcomeTally(this.job.data.tally);
    tally.count('failed', newlyGivenUp.length);
    const gaveUp = [...before, ...newlyGivenUp];
    await this.saveProgress(all, tally, undefined, { gaveUp, unrecorded });
    await this.reportMetrics(tally, null);
  }

  /** The outcomes still unwritten after trying to write those a run left: none, or all of them. */
  private async writeLeftUnrecorded(): Promise<UnrecordedOutcomes | undefined> {
    const { unrecorded, notificationId } = this.job.data;
    if (!unrecorded) return undefined;
    try {
      const notification = await this.worker.notifications.get(notificationId);
      if (notification) await this.writeUnrecorded(notification, unrecorded);
      return undefined;
    } catch {
      return unrecorded;
    }
  }

  private delay(delayMs: number): Promise<never> {
    return delayRun(this.job, this.token, delayMs);
  }

  private batchId(): string {
    return deliverJobId(this.job.data.notificationId, this.job.data.batch);
  }
}
