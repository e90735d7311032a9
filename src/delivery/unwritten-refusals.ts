import type { DeliverJobData, DeviceFailure, Rejection, UnrecordedOutcomes } from '../queues/deliver.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { refusedDevices, writeRefusals } from '../refusals/refused-devices.ts';
import { gatherOrFlushRefusals } from '../refusals/flush-refusals.ts';
import type { CallOutcomes } from './call-outcomes.ts';

/**
 * The devices a run's gateway calls refused (unsubscribed by a dead token, or failed), handed on once for the run
 * rather than once per call, when the run has called the gateway for the last time or before it saves its progress to
 * wait (write): gathered in Redis with the other runs' of the notification, which are written together, a command per
 * about a thousand devices (gatherOrFlushRefusals), and before the send reads as ended (completeSend). A replay of a
 * batch a last attempt gave up may run after its send ended: it writes its own. Until then each call saves them in the
 * job with its own outcomes (withCall): a run that stops before handing them on leaves them to the next run, as it
 * leaves a call's sent pushes.
 */
export class UnwrittenRefusals {
  /** Written by the run itself rather than gathered: the run is a replay. */
  private readonly writesItself: boolean;
  private rejected: Rejection[] = [];
  private failed: DeviceFailure[] = [];
  /** When the first of them was refused: the time the writes keep, as an unsubscribe round keeps its earliest. */
  private at: Date | null = null;

  constructor(writesItself: boolean) {
    this.writesItself = writesItself;
  }

  /** A call's outcomes as the job saves them: its sent pushes, and every refusal of the run not yet written. */
  withCall(call: Pick<CallOutcomes, 'sent' | 'rejected' | 'failures'>, at: number): UnrecordedOutcomes {
    if (call.rejected.length + call.failures.length > 0) {
      this.rejected = [...this.rejected, ...call.rejected];
      this.failed = [...this.failed, ...call.failures];
      this.at ??= new Date(at);
    }
    return { sent: call.sent.map((push) => push.deviceId), rejected: this.rejected, failed: this.failed, at };
  }

  async write(
    worker: DeliveryWorker,
    batch: Pick<DeliverJobData, 'projectId' | 'notificationId' | 'devices'>,
  ): Promise<void> {
    if (this.at === null) return;
    const refused = refusedDevices(batch, { rejected: this.rejected, failed: this.failed, at: this.at });
    if (this.writesItself) await writeRefusals(worker.deps, [refused]);
    else await gatherOrFlushRefusals(worker.deps, refused);
    this.rejected = [];
    this.failed = [];
    this.at = null;
  }
}
