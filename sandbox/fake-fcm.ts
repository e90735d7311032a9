import { randomUUID } from 'node:crypto';
import type { DeliveryLog } from './delivery-log.ts';
import { fcmOptionProblem } from './option-rules.ts';
import type { TokenRules } from './token-rules.ts';
import type { SandboxAnswer, SandboxRequest } from './sandbox-request.ts';
import { isFcmReservedDataKey } from '../src/gateways/reserved-data-keys.ts';

export const fcmSendPath = /^\/v1\/projects\/([^/]+)\/messages:send$/;

const fcmErrorType = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

/** Error bodies as the FCM HTTP v1 API writes them (google.rpc.Status with an FcmError detail). */
function fcmError(code: number, status: string, message: string, fcmErrorCode?: string): SandboxAnswer {
  const details = fcmErrorCode === undefined ? [] : [{ '@type': fcmErrorType, errorCode: fcmErrorCode }];
  return { status: code, body: { error: { code, message, status, details } } };
}

const badPayloadMessage = 'Invalid JSON payload received. Unknown name "badpayload" at \'message\': Cannot find field.';

function badRequest(message: string): SandboxAnswer {
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message,
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'message', description: message }],
          },
        ],
      },
    },
  };
}

interface FcmMessage {
  token?: unknown;
  notification?: { title?: unknown; body?: unknown };
  data?: Record<string, unknown>;
  webpush?: { fcmOptions?: { link?: unknown }; fcm_options?: { link?: unknown }; headers?: Record<string, unknown> };
  android?: { ttl?: unknown; priority?: unknown };
}

function parseMessage(body: string): FcmMessage | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: FcmMessage };
    return typeof parsed.message === 'object' && parsed.message !== null ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/** FCM carries at most 4096 bytes of a message's notification and data to a device. */
const maxMessageBytes = 4096;

const textBytes = (value: unknown) => (typeof value === 'string' ? Buffer.byteLength(value) : 0);

function messageBytes(message: FcmMessage): number {
  const data = Object.entries(message.data ?? {}).reduce(
    (sum, [key, value]) => sum + textBytes(key) + textBytes(value),
    0,
  );
  return textBytes(message.notification?.title) + textBytes(message.notification?.body) + data;
}

function isHttpsLink(link: unknown): boolean {
  return typeof link === 'string' && URL.canParse(link) && new URL(link).protocol === 'https:';
}

export function answerFcm(
  request: SandboxRequest,
  projectId: string,
  rules: TokenRules,
  log: DeliveryLog,
): SandboxAnswer {
  if (request.method !== 'POST') return fcmError(405, 'INVALID_ARGUMENT', 'Method not allowed.');
  if (!/^Bearer \S+/.test(request.headers.authorization ?? '')) {
    return fcmError(
      401,
      'UNAUTHENTICATED',
      'Request is missing required authentication credential. Expected OAuth 2 access token.',
    );
  }
  // What FCM answers for a Firebase project it does not know: NOT_FOUND with no FcmError detail.
  if (projectId.startsWith('missing-')) return fcmError(404, 'NOT_FOUND', 'Requested entity was not found.');
  const message = parseMessage(request.body);
  if (message === undefined)
    return badRequest('Invalid JSON payload received. Expected an object with a "message" field.');
  if (typeof message.token !== 'string' || message.token === '')
    return fcmError(400, 'INVALID_ARGUMENT', 'Recipient of the message is not set.', 'INVALID_ARGUMENT');
  const token = message.token;
  const link = message.webpush?.fcmOptions?.link ?? message.webpush?.fcm_options?.link;
  const answer = ((): SandboxAnswer => {
    if (link !== undefined && !isHttpsLink(link))
      return fcmError(400, 'INVALID_ARGUMENT', 'The link must be an HTTPS URL.', 'INVALID_ARGUMENT');
    // What FCM answers, as firebase-admin reports it (firebase/firebase-admin-go#580).
    if (messageBytes(message) > maxMessageBytes)
      return fcmError(400, 'INVALID_ARGUMENT', 'Android message is too big', 'INVALID_ARGUMENT');
    const optionProblem = fcmOptionProblem(message);
    if (optionProblem !== undefined) return badRequest(optionProblem);
    const reservedKey = Object.keys(message.data ?? {}).find(isFcmReservedDataKey);
    if (reservedKey !== undefined)
      return fcmError(400, 'INVALID_ARGUMENT', `Invalid data payload key: ${reservedKey}`, 'INVALID_ARGUMENT');
    switch (rules.verdictFor('fcm', token)) {
      case 'unregistered':
        return fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
      case 'invalid':
        return fcmError(
          400,
          'INVALID_ARGUMENT',
          'The registration token is not a valid FCM registration token',
          'INVALID_ARGUMENT',
        );
      case 'badpayload':
        return badRequest(badPayloadMessage);
      case 'unavailable':
        return fcmError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE');
      case 'throttled':
        return {
          ...fcmError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for sending messages.', 'QUOTA_EXCEEDED'),
          headers: { 'retry-after': '1' },
        };
      case 'accept':
        return { status: 200, body: { name: `projects/${projectId}/messages/${randomUUID()}` } };
    }
  })();
  const reason = answer.status === 200 ? null : (answer.body as { error: { status: string } }).error.status;
  log.recordAttempt('fcm', token, answer.status, reason, message);
  return answer;
}
