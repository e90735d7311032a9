import type { Redis } from 'ioredis';
import type { Models } from '../models/index.ts';
import { withRedisLock } from '../infra/redis-lock.ts';
import { deviceLockKey } from './device-store.ts';

export interface Rejection {
  deviceId: string;
  pushToken: string;
  reason: string;
}

/**
 * The gateway said the token is dead (CONTRACTS §9). Only a device still holding that token is unsubscribed: one that
 * registered a new token meanwhile stays subscribed. Each write holds the device lock that device writes share.
 */
export async function markUnsubscribed(redis: Redis, models: Models, prefix: string, projectId: string, rejections: Rejection[], now: Date): Promise<void> {
  await Promise.all(
    rejections.map((rejection) =>
      withRedisLock(redis, deviceLockKey(prefix, projectId, rejection.deviceId), () =>
        models.Device.updateOne(
          { projectId, deviceId: rejection.deviceId, pushToken: rejection.pushToken, isSubscribed: true },
          { $set: { isSubscribed: false, unsubscribedAt: now, unsubscribeReason: rejection.reason, rejectedPushToken: rejection.pushToken } },
        ),
      ),
    ),
  );
}
