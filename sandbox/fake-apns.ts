import { randomUUID } from 'node:crypto';
import type { DeliveryLog } from './delivery-log.ts';
import type { TokenRules } from './token-rules.ts';
import type { SandboxAnswer, SandboxRequest } from './sandbox-request.ts';
import { apnsOptionHeaders, apnsOptionProblem, optionHeaders } from './option-rules.ts';

export const apnsDevicePath = /^\/3\/device\/([^/?]+)$/;

/** APNs refuses payloads over 4 KB for ordinary alerts. */
const maxPayloadBytes = 4096;
/** And an apns-collapse-id over 64 bytes. */
const maxCollapseIdBytes = 64;

function reason(status: number, text: string, extra: Record<string, unknown> = {}): SandboxAnswer {
  return { status, body: { reason: text, ...extra } };
}

function parsePayload(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function check(request: SandboxRequest): SandboxAnswer | undefined {
  if (request.method !== 'POST') return reason(405, 'MethodNotAllowed');
  if (!/^bearer \S+\.\S+\.\S+$/i.test(request.headers.authorization ?? '')) return reason(403, 'MissingProviderToken');
  if (!request.headers['apns-topic']) return reason(400, 'MissingTopic');
  if (request.body === '') return reason(400, 'PayloadEmpty');
  const collapseId = request.headers['apns-collapse-id'];
  if (typeof collapseId === 'string' && Buffer.byteLength(collapseId) > maxCollapseIdBytes)
    return reason(400, 'BadCollapseId');
  const optionProblem = apnsOptionProblem(optionHeaders(request.headers, apnsOptionHeaders));
  if (optionProblem !== undefined) return reason(400, optionProblem);
  if (Buffer.byteLength(request.body) > maxPayloadBytes) return reason(413, 'PayloadTooLarge');
  return undefined;
}

export function answerApns(request: SandboxRequest, token: string, rules: TokenRules, log: DeliveryLog): SandboxAnswer {
  const answer =
    check(request) ??
    ((): SandboxAnswer => {
      switch (rules.verdictFor('apns', token)) {
        case 'unregistered':
          return reason(410, 'Unregistered', { timestamp: Date.now() });
        case 'invalid':
          return reason(400, 'BadDeviceToken');
        case 'badpayload':
          return reason(413, 'PayloadTooLarge');
        case 'unavailable':
          return reason(503, 'ServiceUnavailable');
        case 'throttled':
          return reason(429, 'TooManyRequests');
        case 'accept':
          return { status: 200 };
      }
    })();
  const apnsId = typeof request.headers['apns-id'] === 'string' ? request.headers['apns-id'] : randomUUID();
  const failure = answer.body as { reason: string } | undefined;
  const collapseId = request.headers['apns-collapse-id'];
  log.recordAttempt(
    'apns',
    token,
    answer.status,
    failure?.reason ?? null,
    parsePayload(request.body),
    typeof collapseId === 'string' ? collapseId : undefined,
    optionHeaders(request.headers, apnsOptionHeaders),
  );
  return { ...answer, headers: { ...answer.headers, 'apns-id': apnsId } };
}
