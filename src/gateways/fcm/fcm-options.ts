import type { Message } from 'firebase-admin/messaging';
import type { OutgoingPush } from '../gateway.ts';

/**
 * The message options (CONTRACTS §14) in FCM HTTP v1's form: `android.ttl` (firebase-admin takes milliseconds and sends
 * "<n>s"), `android.priority`, `android.notification.notification_count/sound/channel_id`; for a web token the Web Push
 * `TTL` and `Urgency` headers; buttons in `data.buttons` as JSON for the app to render. Android's notification fields go only where there is a notification (not in a silent push).
 */
export function withFcmOptions(message: Message, push: OutgoingPush): Message {
  const options = push.options;
  if (options === undefined) return message;
  if (options.buttons !== undefined) message.data = { ...message.data, buttons: JSON.stringify(options.buttons) };
  if ('webpush' in message && message.webpush) {
    const headers: Record<string, string> = { ...message.webpush.headers };
    if (options.ttl !== undefined) headers.TTL = String(options.ttl);
    if (options.priority !== undefined) headers.Urgency = options.priority;
    message.webpush.headers = headers;
    return message;
  }
  const android = message.android ?? {};
  if (options.ttl !== undefined) android.ttl = options.ttl * 1000;
  if (options.priority !== undefined) android.priority = options.priority;
  if (android.notification) {
    if (options.badge !== undefined) android.notification.notificationCount = options.badge;
    if (options.sound !== undefined) android.notification.sound = options.sound;
    if (options.androidChannelId !== undefined) android.notification.channelId = options.androidChannelId;
  }
  message.android = android;
  return message;
}
