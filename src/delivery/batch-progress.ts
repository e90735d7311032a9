import type { Job } from 'bullmq';
import { deliveredDevices } from '../history/record-history.ts';
import type { BatchDevice, DeliverJobData, HeldPart, UnrecordedOutcomes } from '../queues/deliver.ts';
import { OutcomeTally } from './outcome-tally.ts';
import { mayFollowAnInterruptedRun } from '../infra/interrupted-runs.ts';
import type { CallOutcomes } from './call-outcomes.ts';
import type { Rendered } from './rendered-push.ts';
import { addToDay, type DailyCountDeps } from '../overview/daily-counts.ts';
import { saveCallProgress, type CallProgress } from '../queues/deliver-call-progress.ts';
import type { Deps } from '../deps.ts';
import type { HashIncrement } from '../infra/hash-increments.ts';

type ProgressDeps = DailyCountDeps & Pick<Deps, 'queues'>;
type KeptProgress = Pick<DeliverJobData, 'gaveUp' | 'unrecorded' | 'attemptsEndedClean' | 'holding'>;

/**
 * A delivery batch's progress as its runs keep it in the job (Redis): the devices done, those given up, and the
 * batch's counts, which go to its own delivery-result document, and its sent pushes not yet in the project's daily
 * counts to the day's, before the job's progress is saved.
 */
export class BatchProgress {
  private readonly deps: ProgressDeps;
  private readonly job: Job<DeliverJobData>;
  private readonly done: Set<string>;
  /**
   * Devices a last attempt gave up and a replay sends again: they stay counted failed, so that the notification's
   * stats add up while the replay runs, until each has its outcome.
   */
  private readonly givenUp: Set<string>;
  /** Devices settled since the job data was last saved: what a call's progress adds to it. */
  private settledSinceSave: string[] = [];
  readonly tally: OutcomeTally;

  constructor(deps: ProgressDeps, job: Job<DeliverJobData>) {
    this.deps = deps;
    this.job = job;
    this.done = new Set(job.data.done ?? []);
    this.givenUp = new Set(job.data.gaveUp ?? []);
    this.tally = new OutcomeTally(job.data.tally);
  }

  /** Devices given up by an earlier attempt are pending again: this run, a replay, sends them. */
  reopenGivenUp(): void {
    for (const deviceId of this.givenUp) this.done.delete(deviceId);
  }

  isDone(deviceId: string): boolean {
    return this.done.has(deviceId);
  }

  /** The device has its outcome, counted; one given up is no longer counted failed for that. */
  settle(deviceId: string): void {
    this.done.add(deviceId);
    this.settledSinceSave.push(deviceId);
    if (this.givenUp.delete(deviceId)) this.tally.reopenFailed(1);
  }

  /**
   * Delivered by an earlier run that stopped before saving its progress, or by an earlier job of this batch that a
   * resumed fan-out queued again after it was removed: counted now, never sent again. Only such runs look history up
   * (mayFollowAnInterruptedRun); a batch's first run, and the retry rounds of a batch never interrupted, skip the
   * look-up, which would read up to a batch of history entries on every retry round while holding a worker's slot.
   */
  async skipDelivered(pending: BatchDevice[]): Promise<BatchDevice[]> {
    const { data } = this.job;
    if (!data.resumedFanOut && !mayFollowAnInterruptedRun(this.job, data.attemptsEndedClean)) return pending;
    const deviceIds = pending.map((device) => device.deviceId);
    const delivered = await deliveredDevices(this.deps.models, data.notificationId, deviceIds);
    this.tally.countSentEarlier(delivered.size);
    for (const deviceId of delivered) this.settle(deviceId);
    return pending.filter((device) => !delivered.has(device.deviceId));
  }

  /** A gateway call's outcomes counted; every device of the call but those to retry has its outcome. */
  countCall(call: Rendered[], outcomes: CallOutcomes): void {
    this.tally.count('sent', outcomes.sent.length);
    this.tally.count('unsubscribed', outcomes.rejected.length);
    this.tally.count('failed', outcomes.failed);
    this.tally.count('retried', outcomes.retry.length);
    const pending = new Set(outcomes.retry);
    for (const { device } of call) if (!pending.has(device.deviceId)) this.settle(device.deviceId);
  }

  /**
   * A gateway call's outcomes, saved before they are written to MongoDB: a rerun writes them instead of sending. They go
   * in the job's progress (CallProgress), with the devices settled since the data's last save, not the batch's devices,
   * and the call's metrics with them.
   */
  async saveUnrecorded(unrecorded: UnrecordedOutcomes, metrics: HashIncrement[]): Promise<void> {
    const afterSave = this.job.data.saves ?? 0;
    const progress: CallProgress = { afterSave, done: this.settledSinceSave, tally: this.tally.saved(), unrecorded };
    await saveCallProgress(this.deps, this.job, progress, metrics);
  }

  /** The devices about to be split off into held parts, saved before the parts are queued (splitOffHeld). */
  async saveHolding(holding: HeldPart[]): Promise<void> {
    await this.saveData({ ...this.job.data, done: [...this.done], tally: this.tally.saved(), holding });
  }

  /** Saves the batch's counts and its progress; outcomes left unrecorded go, unless kept. */
  async save(retryRound: number | undefined, kept: KeptProgress = {}): Promise<void> {
    await this.write([...this.done], this.tally, retryRound, kept);
  }

  /**
   * The devices still pending by the progress saved in the job count as failed and are kept as given up, for a replay
   * to try again; answers the counts saved.
   */
  async giveUp(unrecorded: UnrecordedOutcomes | undefined): Promise<OutcomeTally> {
    const all = this.job.data.devices.map((device) => device.deviceId);
    const done = new Set(this.job.data.done ?? []);
    // Devices given up before, and not sent since by a replay, are still counted failed: counted once.
    const before = new Set(this.job.data.gaveUp ?? []);
    // Devices being split off into held parts are neither: their parts, or a replay queuing them, send them.
    const { holding } = this.job.data;
    const held = new Set(holding?.flatMap((part) => part.deviceIds));
    const newlyGivenUp = all.filter((deviceId) => !done.has(deviceId) && !before.has(deviceId) && !held.has(deviceId));
    const tally = new OutcomeTally(this.job.data.tally);
    tally.count('failed', newlyGivenUp.length);
    const settled = all.filter((deviceId) => !held.has(deviceId));
    await this.write(settled, tally, undefined, { gaveUp: [...before, ...newlyGivenUp], unrecorded, holding });
    return tally;
  }

  private async write(
    done: string[],
    tally: OutcomeTally,
    retryRound: number | undefined,
    kept: KeptProgress,
  ): Promise<void> {
    const { notificationId, localTimeAt, variant } = this.job.data;
    const saved = tally.saved();
    // A held part has a result of its own, under its own job id.
    const part = { ...(localTimeAt !== undefined && { localTimeAt }), ...(variant !== undefined && { variant }) };
    await this.deps.models.DeliveryResult.updateOne(
      { _id: this.job.id },
      { $set: { notificationId, ...saved, ...part } },
      { upsert: true },
    );
    await addToDay(this.deps, this.job.data.projectId, { sent: saved.sent - (this.job.data.sentCounted ?? 0) });
    await this.saveData({
      ...this.job.data,
      done,
      tally: saved,
      sentCounted: saved.sent,
      retryRound,
      unrecorded: undefined,
      holding: undefined,
      gaveUp: this.givenUp.size > 0 ? [...this.givenUp] : undefined,
      ...kept,
    });
  }

  /** Every save of the data counts, so that a call's progress saved before it is read as stale. */
  private async saveData(data: DeliverJobData): Promise<void> {
    await this.job.updateData({ ...data, saves: (data.saves ?? 0) + 1 });
    this.settledSinceSave = [];
  }
}
