import type { Logger } from 'pino';
import type { RedisClient } from './redis.ts';
import { redisKeys } from './redis-keys.ts';

/**
 * Counts that many writers change at once (a project's events per subject and day, its daily sends, clicks and
 * subscriptions) are gathered per project in a Redis hash, field → count, and flushed into the database by one
 * flusher per project at a time, in one write per field or per document: never a document that every writer
 * increments, which would queue them all behind its lock. Redis adds atomically whatever the concurrency. A flush
 * moves the hash aside, numbers it, writes it through its kind's `write` and deletes it; readers add what is still
 * in Redis (read-gathered-counts.ts), so that counts read the same before and after a flush.
 */
export interface GatheredCounts<Writer> {
  /** The counts' name in their Redis keys: `<prefix>:<name>:pending:{<projectId>}`. */
  name: string;
  /** How often a project's own records flush its counts, and the maintenance sweep those of quiet projects. */
  flushEveryMs: number;
  /**
   * Writes one flush's counts. The same flush may be written again (a flusher that died before deleting it), so the
   * write must add nothing twice for a number it has seen: the stored documents carry the number of their flush.
   */
  write(writer: Writer, projectId: string, flush: number, counts: Array<[field: string, count: number]>): Promise<void>;
}

export interface CountStore {
  redis: RedisClient;
  config: { queuePrefix: string };
}

/** A flusher that logs the flush it could not finish (the counts stay in Redis for the next). */
export type LoggingCountStore = CountStore & { log: Pick<Logger, 'warn'> };

/** The field of a flush's hash that holds its number. */
export const flushIdField = '#flush';

export const countKeys = (store: Pick<CountStore, 'config'>, counts: { name: string }, projectId: string) =>
  redisKeys.gatheredCounts(store.config.queuePrefix, counts.name, projectId);

export interface RecordOptions {
  /** Adds the counts only once per marker (a retried job finds it and adds nothing), kept this many seconds. */
  once?: { marker: string; seconds: number };
  /** The oldest day (midnight UTC, in milliseconds) among the counts, for finishedDaysPending. */
  oldestDay?: number;
}

// KEYS: pending, oldest pending day, flush gate[, marker]. ARGV: flush period, oldest day or '', marker seconds,
// then field, count pairs. Adds the counts (once per marker) and lowers the oldest pending day; answers 1 when this
// record opens the flush gate, that is when the project's last flush is older than the period.
const recordScript = `
if KEYS[4] and not redis.call('SET', KEYS[4], '1', 'EX', ARGV[3], 'NX') then return 0 end
for i = 4, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[2] ~= '' then
  local oldest = redis.call('GET', KEYS[2])
  if not oldest or tonumber(ARGV[2]) < tonumber(oldest) then redis.call('SET', KEYS[2], ARGV[2]) end
end
if redis.call('SET', KEYS[3], '1', 'PX', ARGV[1], 'NX') then return 1 end
return 0`;

/** Adds the counts in one script; answers whether a flush of the project is due (see flushGatheredCounts). */
export async function recordGatheredCounts(
  store: CountStore,
  counts: Pick<GatheredCounts<never>, 'name' | 'flushEveryMs'>,
  projectId: string,
  added: Map<string, number>,
  options: RecordOptions = {},
): Promise<boolean> {
  const changes = [...added].filter(([, count]) => count !== 0);
  if (changes.length === 0) return false;
  const names = countKeys(store, counts, projectId);
  const keys = [names.pending, names.oldestPendingDay, names.flushGate];
  if (options.once) keys.push(names.recorded(options.once.marker));
  const due = await store.redis.eval(
    recordScript,
    keys.length,
    ...keys,
    counts.flushEveryMs,
    options.oldestDay ?? '',
    options.once?.seconds ?? 0,
    ...changes.flat(),
  );
  return due === 1;
}

// 1 when the pending or the flushing hash holds a day before ARGV[1]; a hash without its oldest day (written by a
// version that kept none) is taken to hold one.
const countsBeforeScript = `
local function holdsDayBefore(hash, oldest)
  if redis.call('EXISTS', hash) == 0 then return false end
  local day = redis.call('GET', oldest)
  return not day or tonumber(day) < tonumber(ARGV[1])
end
if holdsDayBefore(KEYS[1], KEYS[2]) or holdsDayBefore(KEYS[3], KEYS[4]) then return 1 end
return 0`;

/** Whether counts of a day before `day` (midnight UTC) are still in Redis, pending or in a flush under way. */
export async function holdsCountsBefore(
  store: CountStore,
  counts: { name: string },
  projectId: string,
  day: Date,
): Promise<boolean> {
  const names = countKeys(store, counts, projectId);
  const holds = await store.redis.eval(
    countsBeforeScript,
    4,
    names.pending,
    names.oldestPendingDay,
    names.flushing,
    names.oldestFlushingDay,
    day.getTime(),
  );
  return holds === 1;
}
