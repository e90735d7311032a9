import { describe, expect, it } from 'vitest';
import { classifyFcmError } from '../../src/gateways/fcm/classify-fcm-error.ts';

// The codes and messages firebase-admin 13 puts on SendResponse.error for each FCM answer.
describe('classifyFcmError', () => {
  it('unsubscribes on HTTP v1 UNREGISTERED (messaging/registration-token-not-registered)', () => {
    expect(
      classifyFcmError({
        code: 'messaging/registration-token-not-registered',
        message: 'Requested entity was not found.',
      }).kind,
    ).toBe('unsubscribed');
  });

  it('unsubscribes on legacy InvalidRegistration (messaging/invalid-registration-token)', () => {
    expect(
      classifyFcmError({
        code: 'messaging/invalid-registration-token',
        message: 'Invalid registration token provided.',
      }).kind,
    ).toBe('unsubscribed');
  });

  it('unsubscribes on INVALID_ARGUMENT only when it says the registration token is invalid', () => {
    const invalidToken = {
      code: 'messaging/invalid-argument',
      message: 'The registration token is not a valid FCM registration token',
    };
    expect(classifyFcmError(invalidToken)).toEqual({
      kind: 'unsubscribed',
      reason: 'messaging/invalid-argument: invalid registration token',
    });
    const badPayload = {
      code: 'messaging/invalid-argument',
      message: 'Invalid JSON payload received. Unknown name "foo" at \'message\': Cannot find field.',
    };
    expect(classifyFcmError(badPayload).kind).toBe('failed');
  });

  it('fails, without unsubscribing, on payloads firebase-admin rejects before sending', () => {
    expect(
      classifyFcmError({
        code: 'messaging/invalid-payload',
        message: 'android.notification.imageUrl must be a valid URL string',
      }).kind,
    ).toBe('failed');
    expect(classifyFcmError({ code: 'messaging/payload-size-limit-exceeded', message: 'too big' }).kind).toBe('failed');
  });

  it('retries unavailability, rate limits, internal errors and network failures', () => {
    for (const code of [
      'messaging/server-unavailable',
      'messaging/internal-error',
      'messaging/message-rate-exceeded',
      'messaging/device-message-rate-exceeded',
      'app/network-error',
      'app/network-timeout',
    ]) {
      expect(classifyFcmError({ code, message: 'x' }).kind, code).toBe('retry');
    }
    expect(classifyFcmError({ code: 'messaging/message-rate-exceeded', message: 'x', retryAfterMs: 3000 })).toEqual({
      kind: 'retry',
      reason: 'messaging/message-rate-exceeded: x',
      retryAfterMs: 3000,
    });
  });

  it('retries a non-JSON 5xx or 429 answer, which firebase-admin reports as unknown-error', () => {
    expect(
      classifyFcmError({
        code: 'messaging/unknown-error',
        message: 'An unknown server error was returned. Raw server response: "<html>". Status code: 502.',
      }).kind,
    ).toBe('retry');
    expect(
      classifyFcmError({
        code: 'messaging/unknown-error',
        message: 'An unknown server error was returned. Raw server response: "x". Status code: 404.',
      }).kind,
    ).toBe('failed');
  });

  it('retries an access-token fetch that failed on the network, fails one refused for the credentials', () => {
    expect(
      classifyFcmError({
        code: 'app/invalid-credential',
        message: 'Failed to obtain access token: connect ETIMEDOUT 142.250.1.1:443',
      }).kind,
    ).toBe('retry');
    expect(
      classifyFcmError({
        code: 'app/invalid-credential',
        message: 'Failed to obtain access token: invalid_grant: Invalid JWT Signature.',
      }).kind,
    ).toBe('failed');
  });

  it('fails on credential and sender mismatches, which are not about the device', () => {
    expect(classifyFcmError({ code: 'messaging/mismatched-credential', message: 'SenderId mismatch' }).kind).toBe(
      'failed',
    );
    expect(classifyFcmError({ code: 'messaging/third-party-auth-error', message: 'APNs auth' }).kind).toBe('failed');
  });
});
