import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import type { FrequencyCap } from '../schemas/project-settings.ts';

/** A notification's mark, and the width of one entry: the mark and the second it was admitted, zero-padded. */
const markLength = 8;
const entryLength = markLength + 10;

/**
 * Admits a batch's devices under the cap in one atomic step, on Redis's clock. Each device's pushes in the window are
 * one field of its bucket's hash (the device id), holding fixed-width entries of a notification's mark and the second it
 * was admitted; entries older than the window go first. A device already holding this notification's mark is admitted
 * again without a second count, so a batch run again after a crash, or a retry round, counts nothing twice; otherwise it
 * is admitted, and counted, while it holds fewer than `max` (or always when the send ignores the cap). A bucket expires a
 * window after its last write, when every entry in it is out of the window. Answers 1 (admitted) or 0 (capped) per key.
 */
const admitScript = `
local nowS = tonumber(redis.call('TIME')[1])
local windowS = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local mark = ARGV[3]
local ignoreCap = ARGV[4] == '1'
local since = nowS - windowS
local admitted = {}
for index, key in ipairs(KEYS) do
  local field = ARGV[4 + index]
  local stored = redis.call('HGET', key, field) or ''
  local kept = {}
  local present = false
  for offset = 1, #stored, ${entryLength} do
    local entry = string.sub(stored, offset, offset + ${entryLength - 1})
    if tonumber(string.sub(entry, ${markLength + 1})) > since then
      kept[#kept + 1] = entry
      if string.sub(entry, 1, ${markLength}) == mark then present = true end
    end
  end
  if present then
    admitted[index] = 1
  elseif ignoreCap or #kept < max then
    kept[#kept + 1] = mark .. string.format('%010d', nowS)
    admitted[index] = 1
  else
    admitted[index] = 0
  end
  if #kept == 0 then
    redis.call('HDEL', key, field)
  else
    redis.call('HSET', key, field, table.concat(kept))
    redis.call('EXPIRE', key, windowS)
  end
end
return admitted
`;

/**
 * A project's devices are spread over this many hashes: at a million devices about 60 a bucket, few enough for Redis to
 * keep each bucket in its compact form (hash-max-listpack-entries, 128 by default), which a key per device is not.
 */
const buckets = 16_384;

const digest = (text: string) => createHash('sha256').update(text).digest();
/** 48 bits of the notification id's hash: a device's entries in a window never come near a collision. */
const markOf = (notificationId: string) => digest(notificationId).toString('base64url').slice(0, markLength);
const bucketOf = (deviceId: string) => digest(deviceId).readUInt32BE(0) % buckets;

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
  const prefix = deps.config.queuePrefix;
  const keys = deviceIds.map((deviceId) => redisKeys.frequencyCap(prefix, projectId, bucketOf(deviceId)));
  const answers = (await deps.redis.eval(
    admitScript,
    keys.length,
    ...keys,
    cap.windowHours * 3600,
    cap.max,
    markOf(notificationId),
    ignoreCap ? '1' : '0',
    ...deviceIds,
  )) as number[];
  return new Set(deviceIds.filter((_, index) => answers[index] === 1));
}
