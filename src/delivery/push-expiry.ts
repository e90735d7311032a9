import { pushTimeToLiveSeconds } from '../gateways/time-to-live.ts';
import type { MessageOptions } from '../schemas/message-options.ts';

/** Why a push held by this service past its time to live is not sent (CONTRACTS §14). */
export const expiredReason = 'expired';

/**
 * When a notification's pushes stop being worth sending: its time to live (the message's ttl, four weeks by default)
 * counted from when it was meant to go out, its sendAt or else its creation. A push still held here past this (a
 * paused or slow delivery rate, a long queue) is not handed to its gateway. A ttl of 0 asks the gateway to deliver now
 * or never; every push spends some time here on its way, so that one is left to the gateway to decide.
 */
export function expiresAt(
  notification: { createdAt: Date; sendAt?: Date | null },
  options: Pick<MessageOptions, 'ttl'>,
): number {
  if (options.ttl === 0) return Number.POSITIVE_INFINITY;
  const start = notification.sendAt ?? notification.createdAt;
  return start.getTime() + (options.ttl ?? pushTimeToLiveSeconds) * 1000;
}
