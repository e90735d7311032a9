import type { Models } from '../models/index.ts';
import { deviceKey } from '../models/device.ts';
import { addToDay } from '../overview/daily-counts.ts';

export interface Rejection {
  deviceId: string;
  pushToken: string;
  reason: string;
}

/**
 * The gateway said the token is dead (CONTRACTS §9). Only a device still holding that token and subscribed is
 * unsubscribed: one that registered a new token meanwhile stays subscribed. Each update checks that in its filter, on
 * the document as the server writes it, and bumps the revision, so a registration that read the device before this
 * write retries on what it wrote (changeDevice); all of them go in one unordered bulk write, and those it unsubscribed
 * leave the day's subscribed devices.
 */
export async function markUnsubscribed(
  models: Models,
  projectId: string,
  rejections: Rejection[],
  now: Date,
): Promise<void> {
  if (rejections.length === 0) return;
  const written = await models.Device.bulkWrite(
    rejections.map((rejection) => ({
      updateOne: {
        filter: { _id: deviceKey(projectId, rejection.deviceId), pushToken: rejection.pushToken, isSubscribed: true },
        update: {
          $set: {
            isSubscribed: false,
            unsubscribedAt: now,
            unsubscribeReason: rejection.reason,
            rejectedPushToken: rejection.pushToken,
          },
          $inc: { revision: 1 },
        },
      },
    })),
    { ordered: false },
  );
  await addToDay(models, projectId, { subscribed: -written.modifiedCount }, now);
}
