import { createHash, randomBytes } from 'node:crypto';

export type KeyKind = 'server' | 'client';

const prefixes: Record<KeyKind, string> = { server: 'sk_', client: 'ck_' };

/** 256 random bits; the prefix only helps a human tell the two kinds apart. */
export function generateApiKey(kind: KeyKind): string {
  return prefixes[kind] + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateKeyPair() {
  const apiKey = generateApiKey('server');
  const clientKey = generateApiKey('client');
  return { apiKey, clientKey, serverKeyHash: hashApiKey(apiKey), clientKeyHash: hashApiKey(clientKey) };
}
