import { DelayedError, type Job } from 'bullmq';
import type { PushGateway } from '../gateways/gateway.ts';
import { deliveryMetricIncrements, recordDeliveryMetrics } from '../metrics/delivery-metrics.ts';
import type { BatchDevice, DeliverJobData } from '../queues/deliver.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { isLastAttempt } from '../infra/interrupted-runs.ts';
import { waitOutStorageOutage } from '../infra/storage-outages.ts';
import { delayRun } from '../infra/delay-run.ts';
import { assertLockHeld, LostLockError } from '../queues/lost-lock.ts';
import { RetriesExhaustedError, RetryRound } from './retry-rounds.ts';
import { BatchProgress } from './batch-progress.ts';
import { renderPushes, toOutgoing, type Rendered } from './rendered-push.ts';
import { expiredReason, expiresAt } from './push-expiry.ts';
import { logRefusals, sortOutcomes } from './call-outcomes.ts';
import { recordOutcomes, recordUnrecorded } from './record-outcomes.ts';
import { reportUnsent, type UnsentDevice } from './report-outcomes.ts';
import { giveUpBatch } from './give-up-batch.ts';
import { TimingGate } from './timing-gate.ts';
import { pacedCallSize, reserveCall, waitForThrottle } from './send-throttle.ts';
import { UnwrittenRefusals } from './unwritten-refusals.ts';

/**
 * Pushes handed to the gateway in one call. The outcomes of each call are saved in the job (Redis) before anything
 * else happens, so a run that dies (kill -9) or loses MongoDB repeats at most the one call that was in flight: with
 * neither FCM nor APNs taking an idempotency key, that is the limit of "exactly once" (docs/operations.md, Shutdown and crashes).
 * Smaller calls narrow that window; each call costs one write of its progress (BatchProgress.saveUnrecorded).
 */
export const gatewayCallSize = 100;

/**
 * One run of a delivery batch. Every device of the batch ends in exactly one of sent (history written), unsubscribed
 * or failed, and is then "done": retry rounds skip done devices; outcomes saved in the job but not yet in MongoDB are
 * written by the next run, not sent again; and a run after an unclean end (a recovered stalled job, a failed attempt)
 * or of a batch queued again by a resumed fan-out also skips devices that already have history for the notification.
 * Its progress is a BatchProgress.
 */
export class DeliveryRun {
  private readonly worker: DeliveryWorker;
  private readonly job: Job<DeliverJobData>;
  private readonly token: string | undefined;
  private readonly progress: BatchProgress;
  private readonly round: RetryRound;
  private readonly timing: TimingGate;
  /** Devices still refused in the last retry round of this attempt: pending, for the next attempt. */
  private exhausted = 0;
  private readonly unwritten = new UnwrittenRefusals();

  constructor(worker: DeliveryWorker, job: Job<DeliverJobData>, token: string | undefined) {
    this.worker = worker;
    this.job = job;
    this.token = token;
    this.progress = new BatchProgress(worker.deps, job);
    this.round = new RetryRound(job.data.retryRound);
    this.timing = new TimingGate(worker, job, this.progress);
  }

  async run(): Promise<void> {
    try {
      await this.deliver();
    } catch (error) {
      // The run that has the job now owns its progress and its counts.
      if (error instanceof LostLockError) throw error;
      await waitOutStorageOutage(this.worker.deps.log, this.job, this.token, error);
      if (error instanceof DelayedError || !isLastAttempt(this.job)) throw error;
      await giveUpBatch(this.worker, this.job).catch(() => undefined);
      throw error;
    }
  }

  private async deliver(): Promise<void> {
    const notification = await this.worker.notifications.get(this.job.data.notificationId, this.job.data.variant);
    if (!notification) return;
    // Outcomes an earlier run saved but did not write: written, and those pushes not sent again.
    if (this.job.data.unrecorded) {
      await recordUnrecorded(this.worker, this.job.data, notification, this.job.data.unrecorded);
      await this.progress.save(this.job.data.retryRound);
    }
    this.progress.reopenGivenUp();
    const pending = this.job.data.devices.filter((device) => !this.progress.isDone(device.deviceId));
    if (pending.length === 0 || (await this.timing.canceled())) return;
    const due = await this.timing.due(notification, await this.progress.skipDelivered(pending));
    const rendered = await this.timing.admit(notification, await this.render(notification, due));
    // Capped or expired devices, which no gateway call reports, reach the metrics here.
    if (rendered.length > 0) await this.send(notification, rendered);
    else await this.reportMetrics();
    await this.finish();
  }

  /**
   * Waits, as a delayed job, while the send's throttle or the project's delivery rate has no room for the next gateway
   * call. What this run did is saved first; devices a gateway asked to retry go with the next run.
   */
  private async pace(notification: PreparedNotification, messages: number): Promise<void> {
    const waitMs = await reserveCall(this.worker, this.job.data, notification, messages);
    if (waitMs === 0) return;
    // The round stays: devices refused in this run wait as long as their round says, but only a run that reaches the
    // end of the batch moves the round on, so pacing does not spend the rounds a refused device has left.
    const retry = this.round.next();
    await this.unwritten.handOff(this.worker, this.job);
    await this.progress.save(this.job.data.retryRound);
    await waitForThrottle(this.worker.deps, this.job, this.token, this.progress, Math.max(waitMs, retry?.delayMs ?? 0));
  }

  /**
   * Each device's content; a device whose rendering fails is failed and done, and the run logs how many of how many
   * failed and the first reason: a template too costly for every device fails them all, a starved worker a few.
   */
  private async render(notification: PreparedNotification, devices: BatchDevice[]): Promise<Rendered[]> {
    const { renderer } = this.worker.deps;
    const pushes = await renderPushes(renderer, this.job.data.projectId, notification, devices);
    await this.failUnsent(pushes.failed, devices.length, 'the message could not be rendered');
    return pushes.rendered;
  }

  /** Devices done without a push: counted failed, each reported with its reason, logged as so many of `considered`. */
  private async failUnsent(unsent: UnsentDevice[], considered: number, logMessage: string): Promise<void> {
    this.progress.tally.count('failed', unsent.length);
    for (const { device } of unsent) this.progress.settle(device.deviceId);
    if (unsent.length === 0) return;
    await reportUnsent(this.worker.deps, this.job.data, unsent);
    const { notificationId, batch } = this.job.data;
    const reason = unsent[0]!.reason;
    this.worker.deps.log.warn(
      { notificationId, batch, failed: unsent.length, devices: considered, reason },
      logMessage,
    );
    await this.reportMetrics();
  }

  private async send(notification: PreparedNotification, rendered: Rendered[]): Promise<void> {
    const gateway = await this.worker.deps.gateways.gatewayFor(this.job.data.projectId, this.job.data.gateway);
    const callSize = await pacedCallSize(this.worker, this.job.data, notification, gatewayCallSize);
    for (let start = 0; start < rendered.length; start += callSize) {
      const call = rendered.slice(start, start + callSize);
      await this.pace(notification, call.length);
      // Pushes held here past their time to live are not sent (CONTRACTS §14).
      if (Date.now() <= expiresAt(notification, this.job.data)) await this.sendCall(gateway, notification, call);
      else
        await this.failUnsent(
          call.map(({ device }) => ({ device, outcome: 'expired' as const, reason: expiredReason })),
          call.length,
          'pushes held past their ttl',
        );
    }
    await this.unwritten.handOff(this.worker, this.job);
  }

  private async sendCall(gateway: PushGateway, notification: PreparedNotification, call: Rendered[]): Promise<void> {
    await assertLockHeld(this.worker.deps.redis, this.job, this.token);
    const sendStart = performance.now();
    const outcomes = sortOutcomes(call, await gateway.send(call.map((push) => toOutgoing(notification, push))));
    const gatewaySeconds = (performance.now() - sendStart) / 1000;

    const refusals = this.round.refused(outcomes.retry, outcomes.retryAfterMs);
    this.exhausted += refusals.exhausted.length;
    this.progress.countCall(call, outcomes);
    const unrecorded = this.unwritten.withCall(outcomes, Date.now());
    // Redis first: from here on a rerun writes these outcomes instead of sending the pushes again. The call's metrics
    // are counted in the same script, so that every outcome a rerun finds saved was reported: a rerun that records them
    // (the run stopped at MongoDB) reports nothing, where reporting after the writes would lose them from the metrics.
    const metrics = deliveryMetricIncrements(
      this.worker.deps.config.queuePrefix,
      this.job.data.gateway,
      this.progress.tally.takeUnreported(),
      gatewaySeconds,
    );
    await this.progress.saveUnrecorded(unrecorded, metrics);

    logRefusals(this.worker.deps.log, this.job.data, outcomes);
    // The refused devices are handed off once for the run (UnwrittenRefusals).
    const sentOnly = { sent: outcomes.sent, rejected: [], failed: [], at: new Date(unrecorded.at) };
    await recordOutcomes(this.worker, this.job.data, notification, sentOnly);
  }

  /**
   * Saves the progress, and schedules the next retry round if a device is to be sent again; past the last round, fails
   * the attempt, whose successor starts the rounds again.
   */
  private async finish(): Promise<void> {
    const next = this.round.next();
    if (this.exhausted === 0) {
      await this.progress.save(next?.retryRound);
      if (next) await this.delay(next.delayMs);
      return;
    }
    // The attempt ends with its progress saved: the next one need not look up history as after a crash.
    const attemptsEndedClean = (this.job.data.attemptsEndedClean ?? 0) + 1;
    await this.progress.save(undefined, { attemptsEndedClean });
    throw new RetriesExhaustedError(this.job.data.gateway, this.exhausted);
  }

  private async reportMetrics(): Promise<void> {
    await recordDeliveryMetrics(this.worker.deps, this.job.data.gateway, this.progress.tally.takeUnreported());
  }

  private delay(delayMs: number): Promise<never> {
    return delayRun(this.job, this.token, delayMs);
  }
}
