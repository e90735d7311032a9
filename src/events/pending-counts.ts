import type { Deps } from '../deps.ts';
import type { SubjectType } from '../schemas/events.ts';
import { redisKeys } from '../infra/redis-keys.ts';

/**
 * Daily event counts per subject and type are gathered in Redis, then flushed into MongoDB (event_counters) once a
 * minute by one flusher per project at a time. The write cost follows the number of distinct (subject, type, day)
 * in a flush rather than the number of events, Redis adds atomically whatever the concurrency, and MongoDB only
 * receives inserts. Readers add what is still pending.
 *
 * Why a minute and not seconds: the counters are read for whole days before today only (today is counted from the
 * events themselves, see countEvents), so nobody waits for today's counts, and the longer a flush gathers, the
 * more events share a counter document. The one reader that needs the counters in MongoDB, a segment's $group over
 * them, flushes first when a day before its today still has counts pending (finishedDaysPending).
 */

export interface CountKey {
  subjectType: SubjectType;
  subjectId: string;
  type: string;
  /** Midnight UTC, in milliseconds. */
  day: number;
}

export type CountDeps = Pick<Deps, 'models' | 'redis' | 'config'>;

// Longer than a job's automatic retries take (10 attempts, exponential from 1 s: about 17 minutes), and short enough
// that one marker per request stays small in Redis at thousands of requests a second. A replay from the dashboard
// later than that finds countsRecorded in the job itself (ingestEvents).
export const recordedMarkerSeconds = 3600;
/** The field of a flush's hash that holds its number. */
export const flushIdField = '#flush';

export const countField = (key: CountKey): string =>
  JSON.stringify([key.subjectType, key.subjectId, key.type, key.day]);

// Adds a job's counts once (a retried job finds its marker and adds nothing) and lowers the oldest pending day.
const recordScript = `
if redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX') then
  for i = 3, #ARGV, 2 do redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1]) end
  local oldest = redis.call('GET', KEYS[3])
  if not oldest or tonumber(ARGV[2]) < tonumber(oldest) then redis.call('SET', KEYS[3], ARGV[2]) end
end
return 0`;

/** Adds counts keyed by countField, whose oldest day (midnight UTC, in milliseconds) the caller knows. */
export async function recordCounts(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  jobId: string,
  counts: Map<string, number>,
  oldestDay: number,
): Promise<void> {
  if (counts.size === 0) return;
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  await deps.redis.eval(
    recordScript,
    3,
    names.recorded(jobId),
    names.pending,
    names.oldestPendingDay,
    recordedMarkerSeconds,
    oldestDay,
    ...[...counts].flat(),
  );
}

// 1 when the pending or the flushing hash holds a day before ARGV[1]; a hash without its oldest day (written by a
// version that kept none) is taken to hold one.
const finishedDaysScript = `
local function holdsFinishedDay(hash, oldest)
  if redis.call('EXISTS', hash) == 0 then return false end
  local day = redis.call('GET', oldest)
  return not day or tonumber(day) < tonumber(ARGV[1])
end
if holdsFinishedDay(KEYS[1], KEYS[2]) or holdsFinishedDay(KEYS[3], KEYS[4]) then return 1 end
return 0`;

/** Whether counts of a day before `today` (midnight UTC) are still in Redis, pending or in a flush under way. */
export async function finishedDaysPending(
  deps: Pick<Deps, 'redis' | 'config'>,
  projectId: string,
  today: Date,
): Promise<boolean> {
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  const holds = await deps.redis.eval(
    finishedDaysScript,
    4,
    names.pending,
    names.oldestPendingDay,
    names.flushing,
    names.oldestFlushingDay,
    today.getTime(),
  );
  return holds === 1;
}

/** Counts added in Redis and not yet in MongoDB for the given keys, and the flush under way if there is one. */
export async function pendingCounts(
  deps: CountDeps,
  projectId: string,
  keysToRead: CountKey[],
): Promise<{ pending: number[]; flushing: number[]; flushId: number | null }> {
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  const fields = keysToRead.map(countField);
  const [pending, flushing] = await Promise.all([
    deps.redis.hmget(names.pending, ...fields),
    deps.redis.hmget(names.flushing, flushIdField, ...fields),
  ]);
  const [flushId, ...flushingCounts] = flushing;
  return {
    pending: pending.map(Number),
    flushing: flushingCounts.map(Number),
    flushId: flushId === null || flushId === undefined ? null : Number(flushId),
  };
}
