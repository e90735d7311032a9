import apn from '@parse/node-apn';
import type { OutgoingPush } from '../gateway.ts';
import { apnsCollapseId } from '../collapse-id.ts';
import { pushTimeToLiveSeconds } from '../time-to-live.ts';
import { applyApnsOptions } from './apns-options.ts';

/**
 * Custom keys sit beside `aps` at the top level, as FCM does when it forwards data to iOS, so an app reads
 * `url`, `imageUrl` and its own data keys the same way whichever route a push took. The alert plays the default
 * sound, as an Android notification plays its channel's (without `sound` iOS shows it silently), and APNs keeps it
 * as long as the other gateways keep theirs (it documents no default without apns-expiration).
 */
export function apnsNotificationFor(push: OutgoingPush, topic: string): apn.Notification {
  const notification = new apn.Notification();
  notification.topic = topic;
  notification.pushType = 'alert';
  notification.collapseId = apnsCollapseId(push.collapseId);
  if (!push.options?.silent) {
    notification.alert = push.title === null ? { body: push.body } : { title: push.title, body: push.body };
    notification.sound = 'default';
  }
  const nowSeconds = Math.floor(Date.now() / 1000);
  notification.expiry = nowSeconds + pushTimeToLiveSeconds;
  const payload: Record<string, string> = { ...push.data };
  if (push.url !== null) payload.url = push.url;
  if (push.imageUrl !== null) {
    payload.imageUrl = push.imageUrl;
    // Lets the app's notification service extension download and attach the image before display.
    notification.mutableContent = true;
  }
  if (push.options?.buttons !== undefined) payload.buttons = JSON.stringify(push.options.buttons);
  notification.payload = payload;
  if (push.options !== undefined) applyApnsOptions(notification, push.options, nowSeconds);
  return notification;
}
