import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.ts';
import { hashApiKey, type KeyKind } from '../keys/api-keys.ts';
import type { KeyCache, KeyOwner } from '../keys/key-cache.ts';
import { readBearerToken } from './bearer-token.ts';

/** Keyed by the kind of key that was sent to the wrong kind of endpoint. */
const wrongKindMessages: Record<KeyKind, string> = {
  server:
    'This endpoint is for the client SDK; use the project client key, never the server API key, in apps and browsers.',
  client: 'A client key cannot call the server API; use the server API key from your backend.',
};

/** Resolves the request's key and checks that it is of the expected kind. */
export async function authenticateKey(
  request: FastifyRequest,
  keyCache: KeyCache,
  expected: KeyKind,
): Promise<KeyOwner> {
  const token = readBearerToken(request.headers.authorization);
  const owner = await keyCache.lookup(hashApiKey(token));
  if (!owner) throw unauthorized('The API key is not valid; it may have been rotated.');
  if (owner.kind !== expected) throw forbidden(wrongKindMessages[owner.kind]);
  return owner;
}

/** Resolves the request's key and checks that it is of the expected kind and belongs to the project in the path. */
export async function authenticate(request: FastifyRequest, keyCache: KeyCache, expected: KeyKind): Promise<KeyOwner> {
  const owner = await authenticateKey(request, keyCache, expected);
  const { projectId } = request.params as { projectId?: string };
  if (owner.projectId !== projectId) throw forbidden('The API key belongs to another project.');
  return owner;
}
