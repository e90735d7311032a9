import apn from '@parse/node-apn';
import type { PushOutcome } from '../gateway.ts';
import type { ClosableGateway } from '../closable-gateway.ts';
import { apnsNotificationFor } from './apns-notification.ts';
import { classifyApnsFailure } from './classify-apns-response.ts';

/**
 * shutdown() stops the client at once but only calls back after closing its session, and a session that was
 * destroyed by a connection error never reports closing; so the wait is bounded.
 */
const shutdownWaitMs = 2_000;

function shutDown(provider: apn.Provider): Promise<void> {
  return new Promise<void>((resolve) => {
    setTimeout(resolve, shutdownWaitMs).unref();
    provider.shutdown(resolve);
  });
}

export interface ApnsGatewayOptions {
  provider: apn.ProviderOptions;
  topic: string;
}

/**
 * One HTTP/2 session per client; every push is its own stream, all in flight at once.
 * node-apn would retry 429 and 5xx answers at once and without reading Retry-After; with its retries off,
 * such pushes come back as `retry` and the pipeline's backoff decides when.
 */
export function createApnsGateway(options: ApnsGatewayOptions): ClosableGateway {
  const provider = new apn.Provider({ connectionRetryLimit: 0, ...options.provider });
  return {
    send(pushes) {
      return Promise.all(
        pushes.map(async (push): Promise<PushOutcome> => {
          const result = await provider.send(apnsNotificationFor(push, options.topic), push.token);
          const failure = result.failed[0];
          return failure === undefined ? { kind: 'sent' } : classifyApnsFailure(failure);
        }),
      );
    },
    close: () => shutDown(provider),
  };
}
