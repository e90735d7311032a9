import { describe, expect, it } from 'vitest';
import { classifyWebPushError } from '../../src/gateways/webpush/classify-webpush-error.ts';

// The shapes web-push 3 rejects with: a WebPushError with the push service's status, headers and body, or a network error.
describe('classifyWebPushError (CONTRACTS §9)', () => {
  it('unsubscribes on 404 and 410', () => {
    expect(
      classifyWebPushError({ statusCode: 410, headers: {}, body: 'push subscription has unsubscribed or expired.' }),
    ).toEqual({ kind: 'unsubscribed', reason: 'webpush 410' });
    expect(classifyWebPushError({ statusCode: 404, headers: {}, body: '' })).toEqual({
      kind: 'unsubscribed',
      reason: 'webpush 404',
    });
  });

  it('retries 429 and 5xx, honouring Retry-After in seconds or as a date', () => {
    expect(classifyWebPushError({ statusCode: 429, headers: { 'retry-after': '7' } })).toMatchObject({
      kind: 'retry',
      retryAfterMs: 7000,
    });
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const dated = classifyWebPushError({ statusCode: 503, headers: { 'retry-after': inTenSeconds } });
    expect(dated.kind).toBe('retry');
    expect((dated as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(8000);
    expect(classifyWebPushError({ statusCode: 502, headers: {} })).toEqual({ kind: 'retry', reason: 'webpush 502' });
  });

  it('retries a network error, which carries no status', () => {
    expect(classifyWebPushError({ message: 'connect ECONNREFUSED 127.0.0.1:443' }).kind).toBe('retry');
  });

  it('fails without unsubscribing on other answers; 413 names the payload size', () => {
    expect(classifyWebPushError({ statusCode: 413, headers: {} })).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/^payload_too_large/),
    });
    expect(classifyWebPushError({ statusCode: 400, headers: {}, body: 'bad' })).toEqual({
      kind: 'failed',
      reason: 'webpush 400: bad',
    });
    expect(classifyWebPushError({ statusCode: 403, headers: {}, body: 'VAPID key mismatch' }).kind).toBe('failed');
  });
});
