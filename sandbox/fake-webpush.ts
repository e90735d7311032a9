import { randomUUID } from 'node:crypto';
import type { DeliveryLog } from './delivery-log.ts';
import type { TokenRules } from './token-rules.ts';
import type { SandboxAnswer, SandboxRequest } from './sandbox-request.ts';
import { optionHeaders, webPushOptionHeaders, webPushOptionProblem } from './option-rules.ts';
import { decryptAes128gcm, newSubscriptionSecrets, vapidProblem, type SubscriptionSecrets } from './webpush-crypto.ts';

export const webPushSubscriptionsPath = '/webpush/subscriptions';

export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** RFC 8291 §4: push services must accept 4096 bytes of encrypted body; the sandbox accepts no more. */
const maxBodyBytes = 4096;

function problem(status: number, reason: string, headers?: Record<string, string>): SandboxAnswer {
  return { status, body: { reason }, ...(headers && { headers }) };
}

function requestedPrefix(body: string): string {
  if (body.trim() === '') return '';
  const prefix = (JSON.parse(body) as { prefix?: unknown }).prefix;
  return typeof prefix === 'string' && /^[A-Za-z0-9_-]{0,32}$/.test(prefix) ? prefix : '';
}

function header(request: SandboxRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const issuedEndpointPath = /^\/webpush\/push\/([^/?]+)$/;

function isWebPushRequest(request: SandboxRequest): boolean {
  const authorization = header(request, 'authorization') ?? '';
  return (
    request.method === 'POST' &&
    (/^vapid /i.test(authorization) ||
      header(request, 'ttl') !== undefined ||
      header(request, 'content-encoding') !== undefined)
  );
}

/**
 * The id of the endpoint a push is for: one the sandbox issued, or the last path segment of any other endpoint a Web
 * Push request names. In sandbox mode every push comes here, a real browser's too (https://fcm.googleapis.com/fcm/send/…,
 * Mozilla's /wpush/v2/…, Apple's /…), and answering those with a 404 would unsubscribe the browser.
 */
export function webPushEndpointId(request: SandboxRequest): string | undefined {
  const issued = issuedEndpointPath.exec(request.path);
  if (issued) return issued[1];
  if (!isWebPushRequest(request)) return undefined;
  return request.path.split('/').pop() || undefined;
}

/**
 * A Web Push service (CONTRACTS §10). It issues subscriptions and keeps each one's private key and auth secret, as a
 * browser would, so it can check what a push carries: a valid VAPID signature and an aes128gcm body it decrypts.
 * Endpoints whose id starts `gone-` answer 410 and `flaky-` 503 once (the token rules); an endpoint it never issued
 * (a real browser's, in sandbox mode, or one from before a restart) is accepted without a readable payload.
 */
export function createFakeWebPush(rules: TokenRules, log: DeliveryLog) {
  const subscriptions = new Map<string, SubscriptionSecrets>();

  /** A new subscription whose endpoint is on `origin` and whose id starts with `prefix`. */
  function issue(origin: string, prefix = ''): WebPushSubscription {
    const secrets = newSubscriptionSecrets();
    const endpoint = `${origin}/webpush/push/${prefix}${randomUUID()}`;
    subscriptions.set(endpoint, secrets);
    return {
      endpoint,
      keys: { p256dh: secrets.publicKey.toString('base64url'), auth: secrets.authSecret.toString('base64url') },
    };
  }

  function subscribe(request: SandboxRequest): SandboxAnswer {
    if (request.method !== 'POST') return problem(405, 'MethodNotAllowed');
    let prefix: string;
    try {
      prefix = requestedPrefix(request.body);
    } catch {
      return problem(400, 'the body must be empty or {"prefix": "gone-"}');
    }
    return { status: 201, body: issue(`https://${header(request, 'host')}`, prefix) };
  }

  function check(request: SandboxRequest, origin: string): SandboxAnswer | undefined {
    if (request.method !== 'POST') return problem(405, 'MethodNotAllowed');
    const vapid = vapidProblem(header(request, 'authorization'), origin);
    if (vapid !== null) return problem(401, vapid);
    if (header(request, 'ttl') === undefined) return problem(400, 'the TTL header is required');
    const optionProblem = webPushOptionProblem(optionHeaders(request.headers, webPushOptionHeaders));
    if (optionProblem !== undefined) return problem(400, optionProblem);
    if (header(request, 'content-encoding') !== 'aes128gcm') return problem(415, 'the body must be aes128gcm');
    if (request.bytes.length > maxBodyBytes)
      return problem(413, `the body is ${request.bytes.length} bytes; at most ${maxBodyBytes}`);
    return undefined;
  }

  function verdict(request: SandboxRequest, id: string, endpoint: string): { answer: SandboxAnswer; payload: unknown } {
    if (id.startsWith('gone-')) return { answer: problem(410, 'the subscription has expired'), payload: null };
    switch (rules.verdictFor('webpush', id)) {
      case 'unregistered':
        return { answer: problem(410, 'the subscription has expired'), payload: null };
      case 'invalid':
        return { answer: problem(404, 'no such subscription'), payload: null };
      case 'badpayload':
        return { answer: problem(400, 'the payload is refused'), payload: null };
      case 'unavailable':
        return { answer: problem(503, 'the service is unavailable'), payload: null };
      case 'throttled':
        return { answer: problem(429, 'too many pushes', { 'retry-after': '1' }), payload: null };
      case 'accept':
        break;
    }
    const secrets = subscriptions.get(endpoint);
    if (secrets === undefined) return { answer: { status: 201 }, payload: null };
    try {
      return {
        answer: { status: 201 },
        payload: JSON.parse(decryptAes128gcm(request.bytes, secrets).toString('utf8')),
      };
    } catch (error) {
      return {
        answer: problem(400, `the body does not decrypt for this subscription: ${(error as Error).message}`),
        payload: null,
      };
    }
  }

  function push(request: SandboxRequest, id: string): SandboxAnswer {
    const origin = `https://${header(request, 'host')}`;
    const endpoint = `${origin}${request.path}`;
    const refused = check(request, origin);
    const { answer, payload } =
      refused === undefined ? verdict(request, id, endpoint) : { answer: refused, payload: null };
    const failure = answer.body as { reason: string } | undefined;
    log.recordAttempt(
      'webpush',
      endpoint,
      answer.status,
      failure?.reason ?? null,
      payload,
      header(request, 'topic'),
      optionHeaders(request.headers, webPushOptionHeaders),
    );
    return { ...answer, headers: { ...answer.headers, location: `${endpoint}/messages/${randomUUID()}` } };
  }

  return { issue, subscribe, push };
}
