import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { maxConversionWindowHours, type Attribution } from '../schemas/conversions.ts';

/** A push that reached a device (sent), or that the device's user opened (click): what a conversion is credited to. */
export interface Touch {
  notificationId: string;
  /** The experiment variant the device got, when the send had variants (CONTRACTS §19). */
  variant?: string;
  deviceId: string;
  userId?: string | null;
  /** Milliseconds since the epoch. */
  at: number;
}

/**
 * Each subject keeps its last few pushes only: a conversion is credited to the last one in its window, so older ones
 * matter only when a newer one is outside the window too, and then none of them counts.
 */
export const touchesKept = 10;
const touchesTtlSeconds = (maxConversionWindowHours + 1) * 3600;

/** A sorted set's member: the notification, and its variant after a newline (no notification id holds one). */
export const touchMember = (touch: Pick<Touch, 'notificationId' | 'variant'>) =>
  touch.variant === undefined ? touch.notificationId : `${touch.notificationId}\n${touch.variant}`;

/**
 * Records the pushes under their device and under the device's user, scored by time, each subject's set cut to its
 * last touchesKept and kept for the longest window: one pipelined round trip whatever their number.
 */
export async function recordTouches(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  kind: Attribution,
  touches: Touch[],
): Promise<void> {
  if (touches.length === 0) return;
  const keys = redisKeys.conversions(deps.config.queuePrefix, projectId);
  const pipeline = deps.redis.pipeline();
  for (const touch of touches) {
    const subjects = [keys.touches(kind, 'device', touch.deviceId)];
    if (touch.userId) subjects.push(keys.touches(kind, 'user', touch.userId));
    for (const key of subjects) {
      pipeline.zadd(key, touch.at, touchMember(touch));
      pipeline.zremrangebyrank(key, 0, -touchesKept - 1);
      pipeline.expire(key, touchesTtlSeconds);
    }
  }
  const results = await pipeline.exec();
  const failed = results?.find(([error]) => error !== null);
  if (failed) throw failed[0];
}
