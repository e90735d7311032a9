import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/**
 * The most webhook jobs that run for one endpoint at once, across every worker: with callEach's calls per job, an
 * endpoint that hangs holds at most this share of the workers' slots, and its other jobs wait as delayed work.
 */
export const jobsInFlightPerEndpoint = 2;

/** Frees the leases run out, then takes a slot when fewer than the limit are held; the clock is the server's. */
const acquireScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

type SlotDeps = Pick<Deps, 'redis' | 'config'>;

/** A slot of the endpoint's, or null when all are held; release it when the job's calls are over. */
export async function takeEndpointSlot(deps: SlotDeps, endpointId: string): Promise<(() => Promise<void>) | null> {
  const key = redisKeys.webhookSlots(deps.config.queuePrefix, endpointId);
  const holder = randomUUID();
  const leaseMs = deps.config.webhooks.slotLeaseMs;
  const taken = await deps.redis.eval(acquireScript, 1, key, jobsInFlightPerEndpoint, leaseMs, holder);
  if (taken !== 1) return null;
  return async () => {
    await deps.redis.zrem(key, holder);
  };
}
