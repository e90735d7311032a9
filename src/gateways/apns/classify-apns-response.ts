import type { PushOutcome } from '../gateway.ts';

/** One entry of `failed` from @parse/node-apn's Provider.send. */
export interface ApnsFailure {
  status?: number | string;
  response?: { reason?: string; timestamp?: string | number };
  error?: Error;
}

const unsubscribeReasons: Record<number, string> = { 400: 'BadDeviceToken', 410: 'Unregistered' };

export function classifyApnsFailure(failure: ApnsFailure): PushOutcome {
  const status = typeof failure.status === 'number' ? failure.status : Number(failure.status);
  const reasonText = failure.response?.reason ?? failure.error?.message ?? 'unknown error';
  if (!Number.isInteger(status)) {
    // No HTTP status: the request never got an answer (connection refused or reset, timeout, session closed).
    return { kind: 'retry', reason: `network: ${reasonText}` };
  }
  const reason = `${status} ${reasonText}`;
  if (unsubscribeReasons[status] !== undefined && failure.response?.reason === unsubscribeReasons[status]) {
    return { kind: 'unsubscribed', reason: failure.response.reason };
  }
  if (status === 429 || status >= 500) return { kind: 'retry', reason };
  // node-apn regenerates the provider token on this answer, so the next attempt carries a fresh one.
  if (status === 403 && reasonText === 'ExpiredProviderToken') return { kind: 'retry', reason };
  return { kind: 'failed', reason };
}
