import type { FastifyRequest } from 'fastify';
import type { KeyOwner } from '../keys/key-cache.ts';

const owners = new WeakMap<FastifyRequest, KeyOwner>();

/** The authenticated project of a server API request, remembered by the authentication hook for the handlers. */
export function rememberOwner(request: FastifyRequest, owner: KeyOwner): void {
  owners.set(request, owner);
}

export function requestOwner(request: FastifyRequest): KeyOwner {
  const owner = owners.get(request);
  if (!owner) throw new Error('requestOwner called on a request that was not authenticated');
  return owner;
}
