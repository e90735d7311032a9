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
