import type { JobsOptions } from 'bullmq';
import type { GatewayName } from '../gateways/gateway.ts';
import type { BatchDevice } from '../targets/target-device.ts';

export interface DeliveryTally {
  sent: number;
  failed: number;
  unsubscribed: number;
}

/** One delivery batch: up to a few hundred devices of one notification that share a gateway. */
export interface DeliverJobData {
  notificationId: string;
  projectId: string;
  gateway: GatewayName;
  batch: number;
  /** As the fan-out read them: delivery reads no device documents. */
  devices: BatchDevice[];
  /** Devices whose outcome is final (sent, unsubscribed, failed or gone): a retry or replay skips them. */
  done?: string[];
  tally?: DeliveryTally;
  retryRound?: number;
}

export const emptyTally = (): DeliveryTally => ({ sent: 0, failed: 0, unsubscribed: 0 });

export const deliverJobName = (notificationId: string, batch: number) => `deliver:${notificationId}:${batch}`;
/** Deterministic, so a replayed fan-out adds nothing twice (BullMQ ids cannot contain ":"). */
export const deliverJobId = (notificationId: string, batch: number) => `${notificationId}-${batch}`;

export function gatewayForPlatform(platform: 'android' | 'ios' | 'web'): GatewayName {
  return platform === 'ios' ? 'apns' : 'fcm';
}

export const deliverJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  // A batch that fails for good must not hold its notification in "sending" forever; its devices count as failed.
  ignoreDependencyOnFailure: true,
};
