import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';

/** What the sandbox keeps of a subscription it issued: the browser's half of RFC 8291. */
export interface SubscriptionSecrets {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  authSecret: Buffer;
}

export function newSubscriptionSecrets(): SubscriptionSecrets {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  return { ecdh, publicKey, authSecret: randomBytes(16) };
}

interface VapidClaims {
  aud?: string;
  exp?: number;
  sub?: string;
}

/**
 * Claims of tokens whose signature already verified, by header: a sender reuses one token for many pushes (the
 * product, an hour), and verifying each again cost the sandbox more than the rest of a push.
 */
const verifiedTokens = new Map<string, VapidClaims>();
const maxVerifiedTokens = 1000;

/** The claims of a validly signed `vapid t=<JWT>, k=<key>` header, or what is wrong with it. */
function verifiedClaims(authorization: string | undefined): VapidClaims | string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) return 'the Authorization header is not "vapid t=<JWT>, k=<key>"';
  const [, token, key] = match as unknown as [string, string, string];
  const parts = token.split('.');
  if (parts.length !== 3) return 'the VAPID token is not a JWT';
  const [header, claims, signature] = parts as [string, string, string];
  let parsedHeader: { alg?: string };
  let parsedClaims: VapidClaims;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    parsedClaims = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  } catch {
    return 'the VAPID JWT does not decode';
  }
  if (parsedHeader.alg !== 'ES256') return 'the VAPID JWT is not ES256';
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'k= is not an uncompressed P-256 public key';
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'the VAPID signature does not match k=';
  return parsedClaims;
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): an ES256 JWT signed by that key, for this push
 * service's origin, not expired and not valid for more than 24 hours. Answers what is wrong, or null.
 */
export function vapidProblem(authorization: string | undefined, audience: string): string | null {
  let claims = authorization === undefined ? undefined : verifiedTokens.get(authorization);
  if (claims === undefined) {
    const checked = verifiedClaims(authorization);
    if (typeof checked === 'string') return checked;
    claims = checked;
    if (verifiedTokens.size >= maxVerifiedTokens) verifiedTokens.clear();
    verifiedTokens.set(authorization!, claims);
  }
  if (claims.aud !== audience) return `the VAPID aud is "${claims.aud}", not this push service's origin ${audience}`;
  const now = Date.now() / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= now) return 'the VAPID JWT has expired';
  if (claims.exp > now + 24 * 3600) return 'the VAPID JWT is valid for more than 24 hours';
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    return 'the VAPID sub is not a mailto: or https: URL';
  return null;
}

/** The payload of a single-record aes128gcm body (RFC 8188) encrypted for the subscription (RFC 8291 §3.4). */
export function decryptAes128gcm(body: Buffer, secrets: SubscriptionSecrets): Buffer {
  if (body.length < 21) throw new Error('the body is shorter than an aes128gcm header');
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (senderKey.length !== 65) throw new Error("the aes128gcm key id is not the sender's P-256 public key");
  const sharedSecret = secrets.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), secrets.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, secrets.authSecret, keyInfo, 32));
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the record does not end with the last-record delimiter');
  return padded.subarray(0, end);
}
