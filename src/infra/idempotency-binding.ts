import { createHash } from 'node:crypto';
import type { RedisClient } from './redis.ts';

const claimScript = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
`;

/** A client's Idempotency-Key as a Redis key part: fixed in length whatever the client sent. */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The digest a request's body is bound by: two requests are the same when their JSON is. */
export const requestBodyDigest = (body: unknown): string => keyDigest(JSON.stringify(body));

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
