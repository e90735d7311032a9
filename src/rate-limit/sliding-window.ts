import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { RedisClient } from '../infra/redis.ts';
import { redisKeys } from '../infra/redis-keys.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a request will be allowed again (when refused) or until the oldest counted request leaves the window. */
  resetSeconds: number;
}

/**
 * A sliding log in one sorted set per project, evaluated atomically in Redis with Redis's own clock, so the limit is
 * exact however many ingress processes share it and whatever their clocks say. Refused requests are not logged,
 * so a client that keeps retrying is not locked out for longer than the window.
 */
const script = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs - windowMs)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], nowMs, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], windowMs)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local resetMs = windowMs
if oldest[2] then resetMs = tonumber(oldest[2]) + windowMs - nowMs end
return {allowed, count, resetMs}
`;

/** How many requests the window holds now, by Redis's clock like the script above; nothing is logged. */
const usedScript = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. (nowMs - tonumber(ARGV[1])), '+inf')
`;

export class SlidingWindowLimiter {
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly windowMs: number;

  constructor({ redis, config }: Pick<Deps, 'redis' | 'config'>, windowMs = 60_000) {
    this.redis = redis;
    this.prefix = config.queuePrefix;
    this.windowMs = windowMs;
  }

  private key(subject: string): string {
    return redisKeys.rateLimit(this.prefix, subject);
  }

  async take(subject: string, limit: number): Promise<RateDecision> {
    const [allowed, count, resetMs] = (await this.redis.eval(
      script,
      1,
      this.key(subject),
      this.windowMs,
      limit,
      randomUUID(),
    )) as [number, number, number];
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  async used(subject: string): Promise<number> {
    return (await this.redis.eval(usedScript, 1, this.key(subject), this.windowMs)) as number;
  }
}
