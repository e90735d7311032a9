import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { OutgoingPush, PushGateway, PushOutcome } from '../gateway.ts';
import { webPushTopic } from '../collapse-id.ts';
import { pushTimeToLiveSeconds } from '../time-to-live.ts';
import type { VapidKeys } from '../../webpush/vapid-keys.ts';
import { classifyWebPushError, type WebPushSendError } from './classify-webpush-error.ts';
import { maxWebPushPayloadBytes, webPushPayload } from './webpush-payload.ts';

/** web-push signs JWTs valid for 12 hours; one is reused for an hour, then signed again. */
const vapidHeaderReuseMs = 3600_000;
const requestTimeoutMs = 30_000;

export interface WebPushGatewayOptions {
  vapid: VapidKeys;
  subject: string;
  /** Keeps connections to each push service open across pushes (and, in sandbox mode, leads them to the sandbox). */
  agent: Agent;
}

/**
 * Standard Web Push (RFC 8030) through the web-push library: each payload encrypted for its subscription
 * (aes128gcm, RFC 8291) and signed with the project's VAPID key (RFC 8292), every push of a call in flight at once.
 */
export function createWebPushGateway(options: WebPushGatewayOptions): PushGateway {
  const vapidHeaders = new Map<string, { authorization: string; signedAt: number }>();

  /** One ES256 signature per push service an hour rather than one per push. */
  function authorizationFor(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const cached = vapidHeaders.get(audience);
    if (cached && Date.now() - cached.signedAt < vapidHeaderReuseMs) return cached.authorization;
    const { publicKey, privateKey } = options.vapid;
    const authorization = webpush.getVapidHeaders(
      audience,
      options.subject,
      publicKey,
      privateKey,
      'aes128gcm',
    ).Authorization;
    vapidHeaders.set(audience, { authorization, signedAt: Date.now() });
    return authorization;
  }

  async function sendOne(push: OutgoingPush): Promise<PushOutcome> {
    if (!push.webPushKeys) return { kind: 'failed', reason: 'the device has no Web Push subscription keys' };
    // No retry makes such an endpoint reachable.
    if (!URL.canParse(push.token)) return { kind: 'failed', reason: 'webpush: the endpoint is not a URL' };
    const tag = webPushTopic(push.collapseId);
    const payload = JSON.stringify(webPushPayload(push, tag));
    const bytes = Buffer.byteLength(payload);
    if (bytes > maxWebPushPayloadBytes) {
      return {
        kind: 'failed',
        reason: `payload_too_large: the rendered push is ${bytes} bytes; Web Push carries at most ${maxWebPushPayloadBytes}`,
      };
    }
    try {
      await webpush.sendNotification({ endpoint: push.token, keys: push.webPushKeys }, payload, {
        // CONTRACTS §14: the message's ttl and priority, else four weeks at normal urgency as before options existed.
        TTL: push.options?.ttl ?? pushTimeToLiveSeconds,
        urgency: push.options?.priority ?? 'normal',
        topic: tag,
        contentEncoding: 'aes128gcm',
        headers: { Authorization: authorizationFor(push.token) },
        agent: options.agent,
        timeout: requestTimeoutMs,
      });
      return { kind: 'sent' };
    } catch (error) {
      return classifyWebPushError(error as WebPushSendError);
    }
  }

  return { send: (pushes) => Promise.all(pushes.map(sendOne)) };
}
