import type { OutgoingPush, PushButton } from '../gateway.ts';

/**
 * What the web SDK's service worker receives, decrypted. `tag` is the collapse id: a push shown
 * again under the same tag replaces the first instead of stacking. `data` carries notificationId for @clicked.
 */
export interface WebPushPayload {
  title: string | null;
  body: string;
  url: string | null;
  imageUrl: string | null;
  tag: string;
  data: Record<string, string>;
  /** Shown as the notification's actions; present only when the message has buttons. */
  buttons?: PushButton[];
}

export function webPushPayload(push: OutgoingPush, tag: string): WebPushPayload {
  const payload: WebPushPayload = {
    title: push.title,
    body: push.body,
    url: push.url,
    imageUrl: push.imageUrl,
    tag,
    data: push.data,
  };
  if (push.options?.buttons !== undefined) payload.buttons = push.options.buttons;
  return payload;
}

/**
 * Push services take 4096 bytes of encrypted record (RFC 8291 §4): less the aes128gcm header with the sender's key
 * (86 bytes), the GCM tag (16) and the padding delimiter (1), 3993 bytes of payload.
 */
export const maxWebPushPayloadBytes = 3993;
