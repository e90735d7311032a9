import { pushTimeToLiveSeconds } from '../gateways/time-to-live.ts';
import type { DeliverJobData } from '../queues/deliver.ts';
import type { PreparedNotification } from './prepared-notification.ts';

/** Why a push held by this service past its time to live is not sent (CONTRACTS §14). */
export const expiredReason = 'expired';

/**
 * When a push this service holds stops being worth sending (CONTRACTS §14): its time to live (the message's ttl, four
 * weeks by default) counted from when it was meant to go, which is its send's creation plus the hold (its sendAt, its
 * local time or the end of quiet hours, whichever is latest). A ttl of 0 asks the gateway to deliver now or never;
 * every push spends some time here on its way, so that one is left to the gateway to decide.
 */
export function expiresAt(
  notification: Pick<PreparedNotification, 'createdAt' | 'sendFrom' | 'options'>,
  batch: Pick<DeliverJobData, 'heldUntil'>,
): number {
  const { ttl } = notification.options;
  if (ttl === 0) return Number.POSITIVE_INFINITY;
  const meantFor = Math.max(notification.createdAt.getTime(), notification.sendFrom.getTime(), batch.heldUntil ?? 0);
  return meantFor + (ttl ?? pushTimeToLiveSeconds) * 1000;
}
