import { deleteApp, initializeApp, type AppOptions } from 'firebase-admin/app';
import { getMessaging, type BatchResponse, type Messaging, type SendResponse } from 'firebase-admin/messaging';
import type { OutgoingPush, PushOutcome } from '../gateway.ts';
import type { ClosableGateway } from '../closable-gateway.ts';
import { classifyFcmError, type FcmSendError } from './classify-fcm-error.ts';
import { fcmMessageFor } from './fcm-message.ts';
import { retryAfterMs } from '../retry-after.ts';

/** sendEach refuses more than 500 messages in one call. */
export const fcmMaxBatch = 500;

export interface FcmGatewayOptions {
  appOptions: AppOptions;
  /**
   * firebase-admin's HTTP/2 transport opens its own session to fcm.googleapis.com and ignores httpAgent;
   * the HTTP/1.1 transport goes through the agent, which is how the sandbox is reached.
   */
  legacyHttpTransport: boolean;
}

let appsCreated = 0;

function outcomeOf(response: SendResponse): PushOutcome {
  return response.success ? { kind: 'sent' } : classifyFcmError(response.error as FcmSendError);
}

interface RetryingClient {
  retry?: unknown;
}

/** firebase-admin's failed answer to one message of sendEach, built from the HTTP response. */
interface FailedSend {
  success: false;
  error: FcmSendError;
}

/** The HTTP answer firebase-admin built a failed send from (its RequestResponseError's response). */
interface ErrorResponse {
  headers?: Record<string, string>;
  isJson?(): boolean;
  data?: unknown;
}

interface MessagingRequestHandler {
  httpClient?: RetryingClient;
  http2Client?: RetryingClient;
  buildSendResponseFromError?: (error: { response?: ErrorResponse }) => FailedSend;
}

const fcmErrorType = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

/** The errorCode of the FcmError detail of FCM's error body, or null when it has none. */
function fcmErrorCodeIn(body: unknown): string | null {
  const details = (body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return null;
  const detail = details.find((entry) => (entry as { '@type'?: unknown })?.['@type'] === fcmErrorType) as
    | { errorCode?: unknown }
    | undefined;
  return typeof detail?.errorCode === 'string' ? detail.errorCode : null;
}

/**
 * A gateway's refusals cost the refused pushes only: a refused push comes back as `retry` at once, and the pipeline
 * resends only those after its own backoff, with the job out of the worker meanwhile. So firebase-admin's own retries
 * inside sendEach, which hold a deliver-worker slot while they sleep, are turned off (as node-apn's are): it has no
 * option for it, but its request handler's clients (HTTP/1.1 and HTTP/2) read `retry` on every request, and null
 * means none. FCM's Retry-After must still be honoured (CONTRACTS §9): the error firebase-admin builds from a refused
 * message drops the response's headers, so the handler's builder of that error is wrapped to keep it. The FCM
 * adapter's tests notice a firebase-admin release that renames these fields.
 */
function adaptRequestHandler(messaging: Messaging): void {
  const handler = (messaging as unknown as { messagingRequestHandler?: MessagingRequestHandler })
    .messagingRequestHandler;
  for (const client of [handler?.httpClient, handler?.http2Client])
    if (client && 'retry' in client) client.retry = null;
  const buildFailedSend = handler?.buildSendResponseFromError?.bind(handler);
  if (!handler || !buildFailedSend) return;
  handler.buildSendResponseFromError = (error) => {
    const failed = buildFailedSend(error);
    const after = retryAfterMs(error.response?.headers?.['retry-after']);
    if (after !== undefined) failed.error.retryAfterMs = after;
    if (error.response?.isJson?.()) failed.error.fcmErrorCode = fcmErrorCodeIn(error.response.data);
    return failed;
  };
}

/** What fails comes back here and is classified for the pipeline. */
export function createFcmGateway(options: FcmGatewayOptions): ClosableGateway {
  // Apps are registered by name in a process-wide list; every client needs its own.
  const app = initializeApp(options.appOptions, `pushengine-fcm-${++appsCreated}`);
  const messaging = getMessaging(app);
  if (options.legacyHttpTransport) messaging.enableLegacyHttpTransport();
  adaptRequestHandler(messaging);

  async function sendChunk(pushes: OutgoingPush[]): Promise<PushOutcome[]> {
    try {
      const batch = await messaging.sendEach(pushes.map(fcmMessageFor));
      return batch.responses.map(outcomeOf);
    } catch (error) {
      // The HTTP/2 session failed (a GOAWAY, a reset): each message still gets its own answer once its request
      // settles, and those FCM took before the failure are sent, not to be sent again.
      const pending = (error as { pendingBatchResponse?: Promise<BatchResponse> }).pendingBatchResponse;
      if (pending) return (await pending).responses.map(outcomeOf);
      const outcome = classifyFcmError(error as FcmSendError);
      return pushes.map(() => outcome);
    }
  }

  return {
    async send(pushes) {
      const outcomes: PushOutcome[] = [];
      for (let start = 0; start < pushes.length; start += fcmMaxBatch) {
        outcomes.push(...(await sendChunk(pushes.slice(start, start + fcmMaxBatch))));
      }
      return outcomes;
    },
    close: () => deleteApp(app),
  };
}
