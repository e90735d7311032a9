import { describe, expect, it } from 'vitest';
import { classifyApnsFailure } from '../../src/gateways/apns/classify-apns-response.ts';

// The shapes @parse/node-apn 8 puts in `failed` for each APNs answer.
describe('classifyApnsFailure', () => {
  it('unsubscribes on 410 Unregistered and 400 BadDeviceToken', () => {
    expect(
      classifyApnsFailure({ status: 410, response: { reason: 'Unregistered', timestamp: 1_700_000_000_000 } }),
    ).toEqual({ kind: 'unsubscribed', reason: 'Unregistered' });
    expect(classifyApnsFailure({ status: 400, response: { reason: 'BadDeviceToken' } })).toEqual({
      kind: 'unsubscribed',
      reason: 'BadDeviceToken',
    });
  });

  it('fails, without unsubscribing, on other 4xx reasons', () => {
    for (const [status, reason] of [
      [400, 'DeviceTokenNotForTopic'],
      [400, 'BadTopic'],
      [413, 'PayloadTooLarge'],
      [403, 'InvalidProviderToken'],
      [400, 'PayloadEmpty'],
    ] as const) {
      expect(classifyApnsFailure({ status, response: { reason } }).kind, reason).toBe('failed');
    }
  });

  it('retries 429, 5xx and an expired provider token', () => {
    expect(classifyApnsFailure({ status: 429, response: { reason: 'TooManyRequests' } }).kind).toBe('retry');
    expect(classifyApnsFailure({ status: 503, response: { reason: 'ServiceUnavailable' } }).kind).toBe('retry');
    expect(classifyApnsFailure({ status: 500, error: new Error('Error 500, stream ended unexpectedly') }).kind).toBe(
      'retry',
    );
    expect(classifyApnsFailure({ status: 403, error: new Error('ExpiredProviderToken') }).kind).toBe('retry');
  });

  it('retries when no answer came back (timeout, connection failure)', () => {
    expect(classifyApnsFailure({ error: new Error('apn write timeout') })).toEqual({
      kind: 'retry',
      reason: 'network: apn write timeout',
    });
    expect(classifyApnsFailure({ error: new Error('connect ECONNREFUSED 127.0.0.1:1') }).kind).toBe('retry');
  });
});
