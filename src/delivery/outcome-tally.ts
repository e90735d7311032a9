import { emptyDeliveryCounts, type DeliveryCounts, type DeliveryResult } from '../metrics/delivery-metrics.ts';
import { emptyTally, type DeliveryTally } from '../queues/deliver.ts';

/**
 * The outcomes of one delivery batch, each counted once and read twice: the batch's running totals, saved with the
 * job's progress and in its delivery-result document, and the counts the delivery metrics have not been given yet.
 * A retried push is a metric only: the batch's totals count each device once, by its final outcome.
 */
export class OutcomeTally {
  private readonly totals: DeliveryTally;
  private unreported: DeliveryCounts = emptyDeliveryCounts();

  /** Continues from the totals the job saved. */
  constructor(saved: DeliveryTally | undefined) {
    // A job saved before a count existed lacks it.
    this.totals = { ...emptyTally(), ...saved };
  }

  count(result: DeliveryResult, devices: number): void {
    if (result !== 'retried') this.totals[result] += devices;
    this.unreported[result] += devices;
  }

  /**
   * Delivered by a run that stopped before saving its progress: a total only, as that run reported them to the metrics
   * before it wrote their history.
   */
  countSentEarlier(devices: number): void {
    this.totals.sent += devices;
  }

  /** Devices counted failed when the batch gave up, now with an outcome: a total only, the metrics keep what happened. */
  reopenFailed(devices: number): void {
    this.totals.failed -= devices;
  }

  /** A copy, as the job's data and the delivery-result document store it. */
  saved(): DeliveryTally {
    return { ...this.totals };
  }

  /** The counts since the last call, for the metrics; they are then reported. */
  takeUnreported(): DeliveryCounts {
    const counts = this.unreported;
    this.unreported = emptyDeliveryCounts();
    return counts;
  }
}
