import type { PushOutcome } from '../gateway.ts';

/** The shape firebase-admin gives a failed send: a FirebaseMessagingError or FirebaseAppError (`code` is "service/code"). */
export interface FcmSendError {
  code?: string;
  message?: string;
  /** FCM's Retry-After, which firebase-admin drops; createFcmGateway puts it here. */
  retryAfterMs?: number;
  /**
   * The FcmError detail's errorCode in FCM's answer (UNREGISTERED, …), null when the answer had none, undefined when
   * unknown; createFcmGateway puts it here, since firebase-admin reports a 404 with and without it as the same code.
   */
  fcmErrorCode?: string | null;
}

const unsubscribeCodes = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
]);

/** FCM v1 answers a malformed token with INVALID_ARGUMENT, the same status as a malformed payload; only the message tells them apart. */
const invalidTokenMessage = /registration token is not a valid FCM registration token/i;

const retryCodes = new Set([
  'messaging/server-unavailable',
  'messaging/internal-error',
  'messaging/message-rate-exceeded',
  'messaging/device-message-rate-exceeded',
  'messaging/topics-message-rate-exceeded',
  'app/network-error',
  'app/network-timeout',
]);

/** Non-JSON answers (a proxy's 502 page, say) arrive as unknown-error with the status only in the message. */
const transientStatusInMessage = /Status code: (429|5\d\d)\./;
/** Fetching the OAuth token can fail on the network too; that is no reason to give up on the device. */
const transientCredentialMessage = /ETIMEDOUT|ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|socket hang up|network/i;

function isTransient(code: string, message: string): boolean {
  return (
    retryCodes.has(code) ||
    (code === 'messaging/unknown-error' && transientStatusInMessage.test(message)) ||
    (code === 'app/invalid-credential' && transientCredentialMessage.test(message))
  );
}

const unknownProjectReason =
  'FCM answered NOT_FOUND without UNREGISTERED, as it does for a Firebase project it does not know: check the project_id of the service account';

export function classifyFcmError(error: FcmSendError): PushOutcome {
  const code = error.code ?? 'unknown';
  const reason = `${code}: ${error.message ?? ''}`.trim();
  // firebase-admin reads a bare NOT_FOUND as not-registered; FCM answers that for a Firebase project it does not know
  // (a service account's wrong project_id), where every device would be unsubscribed. Only UNREGISTERED says the
  // token is gone (CONTRACTS §9).
  if (
    code === 'messaging/registration-token-not-registered' &&
    error.fcmErrorCode !== undefined &&
    error.fcmErrorCode !== 'UNREGISTERED'
  )
    return { kind: 'failed', reason: `${code}: ${unknownProjectReason}` };
  if (unsubscribeCodes.has(code)) return { kind: 'unsubscribed', reason: code };
  if (code === 'messaging/invalid-argument' && invalidTokenMessage.test(error.message ?? '')) {
    return { kind: 'unsubscribed', reason: 'messaging/invalid-argument: invalid registration token' };
  }
  if (!isTransient(code, error.message ?? '')) return { kind: 'failed', reason };
  return error.retryAfterMs === undefined
    ? { kind: 'retry', reason }
    : { kind: 'retry', reason, retryAfterMs: error.retryAfterMs };
}
