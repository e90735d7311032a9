import type apn from '@parse/node-apn';
import type { PushOptions } from '../gateway.ts';

/** Apps declare this category with the buttons' actions; the buttons themselves travel in the payload's `buttons`. */
export const buttonsCategory = 'pushengine.buttons';

/**
 * The message options (CONTRACTS §14) in APNs' form: `apns-expiration` (0: deliver now or never), `apns-priority` 10 or
 * 5, `aps.badge`, `aps.sound`, `aps.category`. A silent push is a background push: `content-available: 1`,
 * `apns-push-type: background`, priority 5 (APNs refuses 10 for it); its alert and sound are left out by the caller.
 */
export function applyApnsOptions(notification: apn.Notification, options: PushOptions, nowSeconds: number): void {
  if (options.ttl !== undefined) notification.expiry = options.ttl === 0 ? 0 : nowSeconds + options.ttl;
  if (options.priority !== undefined) notification.priority = options.priority === 'high' ? 10 : 5;
  if (options.badge !== undefined) notification.badge = options.badge;
  if (options.sound !== undefined) notification.sound = options.sound;
  if (options.buttons !== undefined) notification.aps.category = buttonsCategory;
  if (options.silent) {
    notification.pushType = 'background';
    notification.priority = 5;
    notification.contentAvailable = true;
  }
}
