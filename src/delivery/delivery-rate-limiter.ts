import type { Deps } from '../deps.ts';
import type { RedisClient } from '../infra/redis.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { Models } from '../models/index.ts';

/**
 * GCRA on Redis's clock: each message moves the project's theoretical arrival time on by 1/rate seconds; a gateway
 * call may start when that time, with the call's own messages, stays at most one second ahead (or when nothing is
 * owed, for a call longer than a second), otherwise the answer is how long to wait.
 */
const reserveScript = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local intervalMs = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
local burstMs = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < nowMs then tat = nowMs end
local allowedAheadMs = math.max(0, burstMs - intervalMs * count)
if tat - nowMs > allowedAheadMs then return math.ceil(tat - nowMs - allowedAheadMs) end
tat = tat + intervalMs * count
redis.call('SET', KEYS[1], tostring(tat), 'PX', math.ceil(tat - nowMs) + burstMs)
return 0
`;

const burstMs = 1000;
const rateCacheMs = 5000;

/** Takes `count` messages from the budget kept under `key`; answers 0, or the milliseconds to wait before trying again. */
export async function reserveAtRate(redis: RedisClient, key: string, ratePerSecond: number, count: number) {
  return (await redis.eval(reserveScript, 1, key, 1000 / ratePerSecond, count, burstMs)) as number;
}

/**
 * How many messages one gateway call may carry: at most `largest`, and with a rate, at most one second of it, so that no
 * call lets out more than the burst (a batch of 500 at 5 a second is 100 seconds' worth).
 */
export function callSizeAtRate(ratePerSecond: number | null, largest: number): number {
  if (ratePerSecond === null) return largest;
  return Math.max(1, Math.min(largest, Math.floor((ratePerSecond * burstMs) / 1000)));
}

/** Per-project delivery pacing shared by every deliver worker; projects without a rate are never delayed. */
export class DeliveryRateLimiter {
  private readonly redis: RedisClient;
  private readonly models: Models;
  private readonly prefix: string;
  private readonly rates = new Map<string, { rate: number | null; readAt: number }>();

  constructor({ redis, models, config }: Pick<Deps, 'redis' | 'models' | 'config'>) {
    this.redis = redis;
    this.models = models;
    this.prefix = config.queuePrefix;
  }

  /** How many messages one gateway call of the project may carry (callSizeAtRate). */
  async callSize(projectId: string, largest: number): Promise<number> {
    return callSizeAtRate(await this.rateOf(projectId), largest);
  }

  /** Takes `count` messages from the project's budget; answers 0, or the milliseconds to wait before trying again. */
  async reserve(projectId: string, count: number): Promise<number> {
    const rate = await this.rateOf(projectId);
    if (rate === null) return 0;
    return reserveAtRate(this.redis, redisKeys.deliveryRate(this.prefix, projectId), rate, count);
  }

  private async rateOf(projectId: string): Promise<number | null> {
    const cached = this.rates.get(projectId);
    if (cached && Date.now() - cached.readAt < rateCacheMs) return cached.rate;
    const project = await this.models.Project.findById(projectId, { deliveryRatePerSecond: 1 }).lean();
    const rate = project?.deliveryRatePerSecond ?? null;
    this.rates.set(projectId, { rate, readAt: Date.now() });
    return rate;
  }
}
