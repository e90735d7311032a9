import { describe, expect, it } from 'vitest';
import { apnsOptionProblem, fcmOptionProblem, webPushOptionProblem } from '../../sandbox/option-rules.ts';

describe('the sandbox refuses options as the real gateways do (CONTRACTS §10)', () => {
  it('APNs: a priority other than 5 or 10, a background push at 10, an expiration that is not a number', () => {
    expect(apnsOptionProblem({ 'apns-priority': '7' })).toBe('BadPriority');
    expect(apnsOptionProblem({ 'apns-priority': '10', 'apns-push-type': 'background' })).toBe('BadPriority');
    expect(apnsOptionProblem({ 'apns-expiration': 'soon' })).toBe('BadExpirationDate');
    expect(apnsOptionProblem({ 'apns-priority': '5', 'apns-push-type': 'background', 'apns-expiration': '0' })).toBe(
      undefined,
    );
    expect(apnsOptionProblem({ 'apns-priority': '10', 'apns-push-type': 'alert' })).toBe(undefined);
  });

  it('FCM: an android.ttl not written as seconds with an s, a priority other than normal or high', () => {
    expect(fcmOptionProblem({ android: { ttl: '600' } })).toMatch(/android\.ttl/);
    expect(fcmOptionProblem({ android: { ttl: 600 } })).toMatch(/android\.ttl/);
    expect(fcmOptionProblem({ android: { priority: 'urgent' } })).toMatch(/android\.priority/);
    expect(fcmOptionProblem({ android: { ttl: '600s', priority: 'high' } })).toBe(undefined);
    expect(fcmOptionProblem({ android: { ttl: '0.5s', priority: 'NORMAL' } })).toBe(undefined);
    expect(fcmOptionProblem({ webpush: { headers: { Urgency: 'asap' } } })).toMatch(/Urgency/);
  });

  it('Web Push: an Urgency outside its four values, a Topic over 32 characters or outside base64url, a TTL not seconds', () => {
    expect(webPushOptionProblem({ urgency: 'urgent' })).toMatch(/Urgency/);
    expect(webPushOptionProblem({ topic: 'a'.repeat(33) })).toMatch(/Topic/);
    expect(webPushOptionProblem({ topic: 'promo-1.x' })).toMatch(/Topic/);
    expect(webPushOptionProblem({ ttl: '-1' })).toMatch(/TTL/);
    for (const urgency of ['very-low', 'low', 'normal', 'high'])
      expect(webPushOptionProblem({ ttl: '0', urgency, topic: 'a'.repeat(32) })).toBe(undefined);
  });
});
