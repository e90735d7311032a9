import { createPrivateKey } from 'node:crypto';
import { Type, type Static } from 'typebox';

export const FcmServiceAccount = Type.Object({
  project_id: Type.String({ minLength: 1 }),
  client_email: Type.String({ minLength: 1 }),
  private_key: Type.String({ minLength: 1 }),
});
export type FcmServiceAccount = Static<typeof FcmServiceAccount>;

export const ApnsCredentials = Type.Object({
  key: Type.String({ minLength: 1, description: 'contents of the .p8 signing key' }),
  keyId: Type.String({ minLength: 1 }),
  teamId: Type.String({ minLength: 1 }),
  topic: Type.String({ minLength: 1, description: 'the app bundle id' }),
  production: Type.Boolean(),
});
export type ApnsCredentials = Static<typeof ApnsCredentials>;

/**
 * Why a key would fail every live send, or null when it is the kind its gateway signs with: FCM service accounts hold
 * an RSA key, APNs .p8 files a P-256 EC key, both PEM. Checked when the credentials are set, not at the first send.
 */
export function signingKeyProblem(pem: string, gateway: 'fcm' | 'apns'): string | null {
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    return `it is not a private key in PEM form (${(error as Error).message})`;
  }
  if (gateway === 'fcm')
    return key.asymmetricKeyType === 'rsa' ? null : `it is an ${key.asymmetricKeyType} key, not RSA`;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return key.asymmetricKeyType === 'ec' && curve === 'prime256v1'
    ? null
    : `it is an ${key.asymmetricKeyType}${curve ? ` ${curve}` : ''} key, not the P-256 EC key of an AuthKey_<key id>.p8`;
}
