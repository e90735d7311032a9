import type { DeviceDocument } from '../models/device.ts';
import type { RegisterDeviceBody } from '../schemas/device.ts';
import { canonicalLanguageTag } from '../schemas/request-formats.ts';

/** Where pushes for the device go: its token, its Web Push subscription's endpoint and keys, or (a browser without a subscription) nowhere. */
export function pushAddress(input: RegisterDeviceBody): Pick<DeviceDocument, 'pushToken' | 'webPushKeys'> {
  if (input.webPush) return { pushToken: input.webPush.endpoint, webPushKeys: input.webPush.keys };
  return { pushToken: input.pushToken ?? null, webPushKeys: null };
}

/** The language and time zone a request sets: absent ones stay as they are, null clears one. */
export function localeFields(input: Pick<RegisterDeviceBody, 'language' | 'timezone'>): Partial<DeviceDocument> {
  return {
    ...(input.language !== undefined && {
      language: input.language === null ? null : canonicalLanguageTag(input.language),
    }),
    ...(input.timezone !== undefined && { timezone: input.timezone }),
  };
}

export const noSubscriptionReason = 'the browser has no push subscription';

/** 1 for a subscribed device, 0 for another: a write's change to the project's subscribed devices is the difference. */
export const subscribedCount = (device: Pick<DeviceDocument, 'isSubscribed'>) =>
  device.isSubscribed === false ? 0 : 1;

/**
 * The fields a registration sets, given the device as read. A token other than the one the gateway rejected
 * subscribes the device again, and a browser that registers without a subscription is unsubscribed; the revision
 * guard of changeDevice makes that decision hold on the document written.
 */
export function registration(input: RegisterDeviceBody): (current: DeviceDocument) => Partial<DeviceDocument> {
  const address = pushAddress(input);
  return (current) => ({
    platform: input.platform,
    ...address,
    ...(input.userId !== undefined && { userId: input.userId }),
    ...localeFields(input),
    ...(address.pushToken === null
      ? current.isSubscribed && {
          isSubscribed: false,
          unsubscribedAt: new Date(),
          unsubscribeReason: noSubscriptionReason,
        }
      : !current.isSubscribed &&
        current.rejectedPushToken !== address.pushToken && {
          isSubscribed: true,
          unsubscribedAt: null,
          unsubscribeReason: null,
          rejectedPushToken: null,
        }),
  });
}
