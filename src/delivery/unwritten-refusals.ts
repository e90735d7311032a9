import type { DeliverJobData, DeviceFailure, Rejection, UnrecordedOutcomes } from '../queues/deliver.ts';
import type { Job } from 'bullmq';
import type { DeliveryWorker } from './delivery-worker.ts';
import { handOffRefusals } from './handed-refusals.ts';
import type { CallOutcomes } from './call-outcomes.ts';

/**
 * The devices a run's gateway calls refused (unsubscribed by a dead token, or failed), handed off once for the run
 * rather than once per call, to be written with other runs' (handOffRefusals): when the run has called the gateway for
 * the last time or before it saves its progress to wait, so that a dead token costs its call no write of its own.
 * Until then each call saves them in the job with its own outcomes (withCall): a run that stops before handing them
 * off leaves them to the next run, as it leaves a call's sent pushes.
 */
export class UnwrittenRefusals {
  private rejected: Rejection[] = [];
  private failed: DeviceFailure[] = [];
  /** When the first of them was refused: the time the writes keep, as an unsubscribe round keeps its earliest. */
  private at: Date | null = null;

  /** A call's outcomes as the job saves them: its sent pushes, and every refusal of the run not yet written. */
  withCall(call: Pick<CallOutcomes, 'sent' | 'rejected' | 'failures'>, at: number): UnrecordedOutcomes {
    if (call.rejected.length + call.failures.length > 0) {
      this.rejected = [...this.rejected, ...call.rejected];
      this.failed = [...this.failed, ...call.failures];
      this.at ??= new Date(at);
    }
    return { sent: call.sent.map((push) => push.deviceId), rejected: this.rejected, failed: this.failed, at };
  }

  /** Hands them off to be written with the other runs' of their notification (handOffRefusals), if there are any. */
  async handOff(worker: DeliveryWorker, job: Job<DeliverJobData>): Promise<void> {
    if (this.at === null) return;
    await handOffRefusals(worker, job, { rejected: this.rejected, failed: this.failed, at: this.at });
    this.rejected = [];
    this.failed = [];
    this.at = null;
  }
}
