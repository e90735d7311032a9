/** The API's codes in the words a marketer reads: labels keyed by the API's own types, so a new value must be named. */
import type { DeliveryOutcome } from '../../src/schemas/delivery-log.ts';
import type { WebhookEventType } from '../../src/schemas/webhook.ts';
import type { Platform } from '../../src/schemas/platforms.ts';
import type { WaitingReason } from '../../src/queues/waiting-pushes.ts';

export const outcomeWords: Record<DeliveryOutcome, string> = {
  sent: 'Sent',
  failed: 'Failed',
  unsubscribed: 'Unsubscribed',
  capped: 'Over the frequency cap',
  expired: 'Expired before sending',
};

export const deliveryOutcomes = Object.keys(outcomeWords) as DeliveryOutcome[];

/** The delivery log's entries for pushes not yet handed to a gateway, and why each waits. */
export const waitingWords = { waiting: 'Waiting' };
export const waitingReasonWords: Record<WaitingReason, string> = {
  local_time: 'Waiting for the local time chosen, in the device’s own zone',
  quiet_hours: 'Held by the project’s quiet hours',
  throttle: 'Held back to keep to the send’s pace (pushes a minute)',
};

export const webhookEventWords: Record<WebhookEventType, string> = {
  'notification.completed': 'A send finished',
  'message.failed': 'A push failed',
  'message.clicked': 'A push was clicked',
  'device.unsubscribed': 'A device unsubscribed',
  'in_app.displayed': 'An in-app message was shown',
  'in_app.clicked': 'An in-app message was clicked',
  'in_app.closed': 'An in-app message was closed',
  'message.converted': 'A push led to a conversion',
  'journey.step': 'A journey reached a webhook step',
};

export const webhookEventTypes = Object.keys(webhookEventWords) as WebhookEventType[];

/** Gateway reasons (FCM, APNs, Web Push) by the words they contain, first match wins. */
const reasonWords: Array<[RegExp, string]> = [
  [
    /not-registered|unregistered|baddevicetoken|invalid.registration.token|webpush 410|webpush 404|devicetokennotfortopic/i,
    'The app was uninstalled or its token expired',
  ],
  [/^expired$/i, 'The push waited past its time to live and was not sent'],
  [/rate-exceeded|toomanyrequests|429/i, 'The push service asked us to slow down'],
  [/payload_too_large|payloadtoolarge|too large/i, 'The message was too large for the push service'],
  [/server-unavailable|internal-error|unavailable|internalservererror|5\d\d/i, 'The push service was unavailable'],
  [
    /credential|auth|expiredprovidertoken|invalidprovidertoken|sender-id|mismatch/i,
    'The project’s push credentials were refused: check them in the project settings',
  ],
  [/subscription keys/i, 'The browser subscription is incomplete'],
  [/liquid|template|render/i, 'The message could not be written for this device'],
  [/invalid-argument/i, 'The push service refused the message as invalid'],
];

/** A gateway or engine reason in plain words, or the reason itself when it is one we do not know. */
export function reasonInWords(reason: string | null | undefined): string {
  if (!reason) return '';
  if (Object.hasOwn(waitingReasonWords, reason)) return waitingReasonWords[reason as WaitingReason];
  return reasonWords.find(([pattern]) => pattern.test(reason))?.[1] ?? reason;
}

export const platformWords: Record<Platform, string> = { android: 'Android', ios: 'iOS', web: 'Web browsers' };

/** A code the API answers as a plain string, in words when it is one the console names, else as it is. */
export const inWords = (words: Record<string, string>, code: string): string =>
  Object.hasOwn(words, code) ? words[code]! : code;
