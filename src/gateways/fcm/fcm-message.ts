import type { Message } from 'firebase-admin/messaging';
import type { OutgoingPush } from '../gateway.ts';
import { webPushTopic } from '../collapse-id.ts';
import { withFcmOptions } from './fcm-options.ts';

/**
 * The url and image also travel in `data`, so an app can act on them whatever the platform shows by itself;
 * they are set after the customer's data so the notification's own values win.
 */
function dataWith(push: OutgoingPush): Record<string, string> {
  const data: Record<string, string> = { ...push.data };
  if (push.url !== null) data.url = push.url;
  if (push.imageUrl !== null) data.imageUrl = push.imageUrl;
  return data;
}

/** FCM rejects a web click link that is not https; such a url still reaches the page through data.url. */
function isHttps(url: string): boolean {
  return URL.canParse(url) && new URL(url).protocol === 'https:';
}

/**
 * firebase-admin's own test of android.notification.imageUrl (validator.isURL, not exported), which refuses the whole
 * message: each host label letters, digits and inner dashes (no underscore, no trailing dot) or an IPv6 literal; a
 * path of non-empty segments of unreserved characters; nothing outside URL characters.
 */
const fcmHostname =
  /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*$|^\[[a-fA-F0-9:.]+\]$/;
const fcmPathname = /^(\/[\w\-.~!$'()*+,;=:@%]+)*\/?$/;
const nonUrlCharacter = /[^a-z0-9:/?#[\]@!$&'()*+,;=.\-_~%]/i;

/**
 * The image percent-encoded first, and left to data.imageUrl alone when firebase-admin would refuse it (an S3 bucket
 * named with an underscore, a double slash in the path): the push then goes out without it rather than failing.
 */
function androidImageUrl(imageUrl: string): string | undefined {
  if (!URL.canParse(imageUrl)) return undefined;
  const url = new URL(imageUrl);
  const accepted =
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    fcmHostname.test(url.hostname) &&
    fcmPathname.test(url.pathname) &&
    !nonUrlCharacter.test(url.href);
  return accepted ? url.href : undefined;
}

/**
 * The collapse id goes out as the collapse key (CONTRACTS §1), which replaces a push still waiting at FCM, and as the
 * notification's tag, which replaces one already shown: without a tag a push sent twice (CONTRACTS §1) would show
 * twice.
 */
export function fcmMessageFor(push: OutgoingPush): Message {
  const notification = push.title === null ? { body: push.body } : { title: push.title, body: push.body };
  const message: Message = { token: push.token, notification, data: dataWith(push) };
  if (push.options?.silent) return withFcmOptions(silentMessage(message, push), push);
  if (push.platform === 'web') {
    message.webpush = {
      headers: { Topic: webPushTopic(push.collapseId) },
      notification: { tag: push.collapseId, ...(push.imageUrl !== null && { image: push.imageUrl }) },
      ...(push.url !== null && isHttps(push.url) && { fcmOptions: { link: push.url } }),
    };
  } else {
    const imageUrl = push.imageUrl === null ? undefined : androidImageUrl(push.imageUrl);
    message.android = {
      collapseKey: push.collapseId,
      notification: { tag: push.collapseId, ...(imageUrl !== undefined && { imageUrl }) },
    };
  }
  return withFcmOptions(message, push);
}

/** A data-only message (no notification for the system to show), still collapsing under its collapse id. */
function silentMessage(message: Message, push: OutgoingPush): Message {
  delete message.notification;
  message.android = { collapseKey: push.collapseId };
  return message;
}
