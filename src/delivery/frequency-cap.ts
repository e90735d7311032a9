import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { FrequencyCap } from '../schemas/project-settings.ts';

/**
 * Admits a batch's devices under the cap in one atomic step, on Redis's clock. Each device has a sorted set of the
 * notifications it was admitted for, scored by when; entries older than the window go first. A device already
 * holding this notification is admitted again without a second count, so a batch run again after a crash, or a retry
 * round, counts nothing twice; otherwise it is admitted, and counted, while it holds fewer than `max` (or always when
 * the send ignores the cap). Answers 1 (admitted) or 0 (capped) per key.
 */
const admitScript = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local member = ARGV[3]
local ignoreCap = ARGV[4] == '1'
local admitted = {}
for index, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', nowMs - windowMs)
  if redis.call('ZSCORE', key, member) then
    admitted[index] = 1
  elseif ignoreCap or redis.call('ZCARD', key) < max then
    redis.call('ZADD', key, nowMs, member)
    redis.call('PEXPIRE', key, windowMs)
    admitted[index] = 1
  else
    admitted[index] = 0
  end
end
return admitted
`;

/** A notification's mark in a device's set: 11 characters (66 bits) of its id's hash keep a million devices small. */
const capMember = (notificationId: string) =>
  createHash('sha256').update(notificationId).digest('base64url').slice(0, 11);

export interface CapCheck {
  projectId: string;
  notificationId: string;
  cap: FrequencyCap;
  ignoreCap: boolean;
}

/** The devices of these that may be sent the notification now, each counted toward its cap. */
export async function admitUnderCap(
  deps: Pick<Deps, 'redis' | 'config'>,
  { projectId, notificationId, cap, ignoreCap }: CapCheck,
  deviceIds: string[],
): Promise<Set<string>> {
  if (deviceIds.length === 0) return new Set();
  const keys = deviceIds.map((deviceId) => redisKeys.frequencyCap(deps.config.queuePrefix, projectId, deviceId));
  const answers = (await deps.redis.eval(
    admitScript,
    keys.length,
    ...keys,
    cap.windowHours * 3_600_000,
    cap.max,
    capMember(notificationId),
    ignoreCap ? '1' : '0',
  )) as number[];
  return new Set(deviceIds.filter((_, index) => answers[index] === 1));
}
