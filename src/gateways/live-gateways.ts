import { cert } from 'firebase-admin/app';
import { Value } from 'typebox/value';
import type { Models } from '../models/index.ts';
import { unseal, type Sealed } from '../credentials/cipher.ts';
import { ApnsCredentials, FcmServiceAccount } from '../credentials/push-credentials.ts';
import type { CredentialedGateway, PushOutcome } from './gateway.ts';
import type { ClosableGateway } from './closable-gateway.ts';
import { createFcmGateway } from './fcm/fcm-gateway.ts';
import { createApnsGateway } from './apns/apns-gateway.ts';

export interface LiveGateway {
  gateway: ClosableGateway;
  /** Changes whenever the credentials are set again (each seal has a fresh IV); null when there are none. */
  version: string | null;
}

/** Sending cannot succeed until someone fixes the project's credentials, so every push fails with the reason. */
function failingGateway(reason: string): ClosableGateway {
  const outcome: PushOutcome = { kind: 'failed', reason };
  return { send: async (pushes) => pushes.map(() => outcome), close: async () => {} };
}

export async function sealedCredentials(
  models: Models,
  projectId: string,
  gateway: CredentialedGateway,
): Promise<Sealed | null> {
  const project = await models.Project.findById(projectId, { [`credentials.${gateway}`]: 1 }).lean();
  const sealed = project?.credentials?.[gateway];
  return sealed?.iv && sealed.tag && sealed.data ? { iv: sealed.iv, tag: sealed.tag, data: sealed.data } : null;
}

function clientFor(gateway: CredentialedGateway, credentials: unknown): ClosableGateway {
  if (gateway === 'fcm') {
    if (!Value.Check(FcmServiceAccount, credentials))
      return failingGateway('the project FCM service account is incomplete');
    return createFcmGateway({
      appOptions: {
        credential: cert({
          projectId: credentials.project_id,
          clientEmail: credentials.client_email,
          privateKey: credentials.private_key,
        }),
        projectId: credentials.project_id,
      },
      legacyHttpTransport: false,
    });
  }
  if (!Value.Check(ApnsCredentials, credentials)) return failingGateway('the project APNs credentials are incomplete');
  return createApnsGateway({
    provider: {
      token: { key: credentials.key, keyId: credentials.keyId, teamId: credentials.teamId },
      production: credentials.production,
    },
    topic: credentials.topic,
  });
}

const gatewayLabel: Record<CredentialedGateway, string> = { fcm: 'FCM', apns: 'APNs' };

export async function loadLiveGateway(
  models: Models,
  credentialsKey: Buffer,
  projectId: string,
  gateway: CredentialedGateway,
): Promise<LiveGateway> {
  const sealed = await sealedCredentials(models, projectId, gateway);
  if (sealed === null)
    return { gateway: failingGateway(`the project has no ${gatewayLabel[gateway]} credentials`), version: null };
  let credentials: unknown;
  try {
    credentials = JSON.parse(unseal(sealed, credentialsKey));
  } catch {
    return {
      gateway: failingGateway(
        `the project ${gatewayLabel[gateway]} credentials cannot be decrypted with CREDENTIALS_KEY`,
      ),
      version: sealed.iv,
    };
  }
  try {
    return { gateway: clientFor(gateway, credentials), version: sealed.iv };
  } catch (error) {
    // node-apn and firebase-admin check keys when the client is built; a malformed key is the customer's to fix.
    return {
      gateway: failingGateway(
        `the project ${gatewayLabel[gateway]} credentials are not usable: ${(error as Error).message}`,
      ),
      version: sealed.iv,
    };
  }
}
