import { createHash } from 'node:crypto';
import type { RedisClient } from './redis.ts';
import { invalidFields } from '../http/api-error.ts';

const claimScript = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
`;

/** A client's Idempotency-Key as a Redis key part: fixed in length whatever the client sent. */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * Binds `redisKey` to `candidateId` for `windowSeconds` unless it is bound already, and answers the id it is bound to:
 * one atomic script, so that requests racing with one Idempotency-Key all get the first one's id.
 */
export async function claimBinding(
  redis: RedisClient,
  redisKey: string,
  candidateId: string,
  windowSeconds: number,
): Promise<string> {
  return (await redis.eval(claimScript, 1, redisKey, candidateId, windowSeconds)) as string;
}

/** What a key is bound to: the id its first request got, with that request's digest. */
export const requestBinding = (id: string, request: unknown) => `${id}:${keyDigest(JSON.stringify(request))}`;

/**
 * The id a binding stands for, when `request` is the one that made it. The same key with another request is a 400:
 * answering the first request's id would report the second as accepted while nothing of it is done. A binding made
 * before bindings carried the request (a bare id, within its window after an upgrade) stands for any request.
 */
export function boundIdFor(binding: string, request: unknown): string {
  const separator = binding.lastIndexOf(':');
  if (separator === -1) return binding;
  const id = binding.slice(0, separator);
  if (binding !== requestBinding(id, request))
    throw invalidFields([
      { path: '/headers/idempotency-key', message: 'was sent with another request within its window; use a new key' },
    ]);
  return id;
}
