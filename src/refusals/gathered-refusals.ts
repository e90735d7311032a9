import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { refusedCount, type RefusedDevices } from './refused-devices.ts';

type StoreDeps = Pick<Deps, 'redis' | 'config'>;

/** A claim's lease: past it, a flusher that took the claim is taken for dead and another takes the claim again. */
export const claimLeaseMs = 60_000;

/** KEYS: pending, pending devices. ARGV: the run's entry, its devices. Answers the devices now pending. */
const gatherScript = `
redis.call('RPUSH', KEYS[1], ARGV[1])
return redis.call('INCRBY', KEYS[2], ARGV[2])
`;

/**
 * KEYS: pending, pending devices, claims, the new claim. ARGV: the new claim's id, now, the lease, '1' to take claims
 * whose lease still runs. Moves what is pending to the new claim, leases it and the claims taken again, and answers
 * their ids: from here until they are released, a flusher that dies leaves them in Redis, never lost.
 */
const claimScript = `
local leaseEnd = tonumber(ARGV[2]) + tonumber(ARGV[3])
local upTo = ARGV[4] == '1' and '+inf' or ARGV[2]
local taken = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', upTo)
for _, id in ipairs(taken) do redis.call('ZADD', KEYS[3], leaseEnd, id) end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('RENAME', KEYS[1], KEYS[4])
  redis.call('DEL', KEYS[2])
  redis.call('ZADD', KEYS[3], leaseEnd, ARGV[1])
  table.insert(taken, ARGV[1])
end
return taken
`;

/** Adds a run's refused devices to its notification's pending ones; answers how many devices are now pending. */
export async function gatherRefusals(deps: StoreDeps, refused: RefusedDevices): Promise<number> {
  const keys = redisKeys.refusals(deps.config.queuePrefix, refused.notificationId);
  const entry = JSON.stringify(refused);
  return Number(
    await deps.redis.eval(gatherScript, 2, keys.pending, keys.pendingDevices, entry, refusedCount(refused)),
  );
}

export interface Claimed {
  notificationId: string;
  claimIds: string[];
  runs: RefusedDevices[];
}

/**
 * Takes a notification's pending refusals and the claims whose lease ran out (or every claim, with `leased`: those a
 * living flusher is writing too, which a send's end must not wait for), each under a new lease. A refusal taken twice
 * is written twice, which changes nothing.
 */
export async function claimRefusals(
  deps: StoreDeps,
  notificationId: string,
  options: { leased: boolean; leaseMs?: number },
): Promise<Claimed> {
  const keys = redisKeys.refusals(deps.config.queuePrefix, notificationId);
  const newId = randomUUID();
  const claimIds = (await deps.redis.eval(
    claimScript,
    4,
    keys.pending,
    keys.pendingDevices,
    keys.claims,
    keys.claim(newId),
    newId,
    Date.now(),
    options.leaseMs ?? claimLeaseMs,
    options.leased ? '1' : '0',
  )) as string[];
  const lists = await Promise.all(claimIds.map((claimId) => deps.redis.lrange(keys.claim(claimId), 0, -1)));
  const runs = lists.flat().map((entry) => JSON.parse(entry) as RefusedDevices);
  return { notificationId, claimIds, runs };
}

/** The claims are written: they leave Redis. */
export async function releaseClaims(deps: StoreDeps, claimed: Claimed): Promise<void> {
  if (claimed.claimIds.length === 0) return;
  const keys = redisKeys.refusals(deps.config.queuePrefix, claimed.notificationId);
  await deps.redis
    .multi()
    .del(...claimed.claimIds.map((claimId) => keys.claim(claimId)))
    .zrem(keys.claims, ...claimed.claimIds)
    .exec();
}
