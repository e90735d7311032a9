import { deleteApp, initializeApp, type AppOptions } from 'firebase-admin/app';
import { getMessaging, type SendResponse } from 'firebase-admin/messaging';
import type { OutgoingPush, PushOutcome } from '../gateway.ts';
import type { ClosableGateway } from '../closable-gateway.ts';
import { classifyFcmError, type FcmSendError } from './classify-fcm-error.ts';
import { fcmMessageFor } from './fcm-message.ts';

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

/**
 * firebase-admin retries 503 answers and connection resets itself (up to 4 times, honouring Retry-After
 * up to 60 s); what still fails comes back here and is classified for the pipeline.
 */
export function createFcmGateway(options: FcmGatewayOptions): ClosableGateway {
  // Apps are registered by name in a process-wide list; every client needs its own.
  const app = initializeApp(options.appOptions, `pushengine-fcm-${++appsCreated}`);
  const messaging = getMessaging(app);
  if (options.legacyHttpTransport) messaging.enableLegacyHttpTransport();

  async function sendChunk(pushes: OutgoingPush[]): Promise<PushOutcome[]> {
    try {
      const batch = await messaging.sendEach(pushes.map(fcmMessageFor));
      return batch.responses.map(outcomeOf);
    } catch (error) {
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
