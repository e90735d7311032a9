import type { PushOutcome } from '../gateway.ts';
import { retryAfterMs } from '../retry-after.ts';
import { notPublicCode } from '../../net/public-address.ts';

/** What web-push rejects with: a WebPushError carries the push service's answer; a network error has no status. */
export interface WebPushSendError {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  message?: string;
  code?: string;
}

/** CONTRACTS §9: 404 and 410 mean the subscription is gone; 429, 5xx and the network are worth another try. */
export function classifyWebPushError(error: WebPushSendError): PushOutcome {
  const status = error.statusCode;
  // The endpoint's host is inside the network (connectToPublicAddressesOnly): no retry reaches a push service there.
  if (error.code === notPublicCode) return { kind: 'failed', reason: `webpush: ${error.message}` };
  if (status === undefined) return { kind: 'retry', reason: `webpush network error: ${error.message ?? 'unknown'}` };
  const reason = `webpush ${status}${error.body ? `: ${error.body.slice(0, 200)}` : ''}`;
  if (status === 404 || status === 410) return { kind: 'unsubscribed', reason: `webpush ${status}` };
  if (status === 429 || status >= 500) {
    const after = retryAfterMs(error.headers?.['retry-after']);
    return after === undefined ? { kind: 'retry', reason } : { kind: 'retry', reason, retryAfterMs: after };
  }
  if (status === 413)
    return { kind: 'failed', reason: `payload_too_large: the push service refused the rendered push (${reason})` };
  return { kind: 'failed', reason };
}
