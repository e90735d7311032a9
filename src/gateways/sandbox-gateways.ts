import { generateKeyPairSync } from 'node:crypto';
import type { CredentialedGateway } from './gateway.ts';
import type { ClosableGateway } from './closable-gateway.ts';
import { createFcmGateway } from './fcm/fcm-gateway.ts';
import { sandboxFcmAgent } from './fcm/sandbox-agent.ts';
import { createApnsGateway } from './apns/apns-gateway.ts';

export const sandboxApnsTopic = 'com.pushengine.sandbox';

/**
 * How long the APNs client waits for the sandbox's answer to a push, where node-apn's default is 5 s. The sandbox
 * answers as fast as the machine it shares with the engine lets it: on a loaded machine a batch of hundreds of streams
 * takes longer than that, and a push the sandbox took but answered late would be sent again. FCM's client waits 15 s
 * (firebase-admin's own bound).
 */
const sandboxApnsAnswerWaitMs = 30_000;

/**
 * Every project shares one pair of clients pointed at the sandbox. Both run the same library code as in live
 * mode; only the endpoint and the credentials differ (a fixed OAuth token, a signing key made now).
 */
export function createSandboxGateways(
  sandboxPort: number,
  sandboxHost = '127.0.0.1',
): Record<CredentialedGateway, ClosableGateway> {
  const fcm = createFcmGateway({
    appOptions: {
      projectId: 'pushengine-sandbox',
      credential: { getAccessToken: async () => ({ access_token: 'sandbox-access-token', expires_in: 3600 }) },
      httpAgent: sandboxFcmAgent(sandboxPort, sandboxHost),
    },
    legacyHttpTransport: true,
  });
  // node-apn signs its provider token with ES256, so it needs a real P-256 key even though the sandbox only checks it is there.
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const apns = createApnsGateway({
    provider: {
      token: {
        key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        keyId: 'SANDBOXKEY',
        teamId: 'SANDBOXTM',
      },
      address: sandboxHost,
      port: sandboxPort,
      requestTimeout: sandboxApnsAnswerWaitMs,
      rejectUnauthorized: false,
      production: false,
    },
    topic: sandboxApnsTopic,
  });
  return { fcm, apns };
}
