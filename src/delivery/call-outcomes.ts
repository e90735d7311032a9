import type { PushOutcome } from '../gateways/gateway.ts';
import type { DeliveredPush } from '../history/record-history.ts';
import type { Rendered } from './rendered-push.ts';
import type { DeliverJobData, DeviceFailure, Rejection } from '../queues/deliver.ts';
import type { Logger } from 'pino';

/** One gateway call's answers, by what each device needs next. */
export interface CallOutcomes {
  sent: DeliveredPush[];
  rejected: Rejection[];
  failed: number;
  /** Each failed device with its reason, for the delivery log and message.failed. */
  failures: DeviceFailure[];
  /** One of the reasons, for the log: the operator sees why without a line per device. */
  failedReason: string | null;
  retry: string[];
  retryAfterMs: number;
}

export function sortOutcomes(rendered: Rendered[], outcomes: PushOutcome[]): CallOutcomes {
  const sorted: CallOutcomes = {
    sent: [],
    rejected: [],
    failed: 0,
    failures: [],
    failedReason: null,
    retry: [],
    retryAfterMs: 0,
  };
  outcomes.forEach((outcome, index) => {
    const { device, content } = rendered[index]!;
    if (outcome.kind === 'sent') sorted.sent.push({ deviceId: device.deviceId, platform: device.platform, content });
    else if (outcome.kind === 'unsubscribed')
      sorted.rejected.push({ deviceId: device.deviceId, pushToken: device.pushToken, reason: outcome.reason });
    else if (outcome.kind === 'failed') {
      sorted.failed += 1;
      sorted.failures.push({ deviceId: device.deviceId, reason: outcome.reason });
      sorted.failedReason ??= outcome.reason;
    } else {
      sorted.retry.push(device.deviceId);
      sorted.retryAfterMs = Math.max(sorted.retryAfterMs, outcome.retryAfterMs ?? 0);
    }
  });
  return sorted;
}

/** One line for the pushes a gateway refused in a call: the operator sees why without a line per device. */
export function logRefusals(log: Logger, batch: DeliverJobData, outcomes: CallOutcomes): void {
  if (outcomes.failed === 0) return;
  const { notificationId, batch: number, gateway } = batch;
  log.warn(
    { notificationId, batch: number, gateway, failed: outcomes.failed, reason: outcomes.failedReason },
    'the gateway refused pushes',
  );
}
