import type { DeliverJobData } from '../queues/deliver.ts';
import type { PreparedNotification } from './prepared-notification.ts';

/** CONTRACTS §14: a push's ttl when its send sets none, 28 days. */
export const defaultTtlSeconds = 2_419_200;

/**
 * The send's ttl in seconds. Sends do not take a `ttl` of their own yet (CONTRACTS §14's message options): until they
 * do, every push has the default, and this is where a send's own ttl is to be read.
 */
const ttlSecondsOf = (_notification: PreparedNotification) => defaultTtlSeconds;

/**
 * When a push this service holds expires (CONTRACTS §14): its ttl counted from when it was meant to go, which is its
 * send's creation plus the hold (its sendAt, its local time or the end of quiet hours, whichever is latest).
 */
export function expiresAt(notification: PreparedNotification, batch: Pick<DeliverJobData, 'heldUntil'>): number {
  const meantFor = Math.max(notification.createdAt.getTime(), notification.sendFrom.getTime(), batch.heldUntil ?? 0);
  return meantFor + ttlSecondsOf(notification) * 1000;
}
