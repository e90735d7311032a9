import { scanKeys } from '../infra/redis.ts';
import type { Deps } from '../deps.ts';
import type { SubjectType } from '../schemas/events.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';
import { LockTimeoutError, withRedisLock } from '../infra/redis-lock.ts';
import { inChunks } from '../infra/chunks.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { flushEventCountsEveryMs } from '../queues/maintenance.ts';
import { finishedDaysPending, flushIdField, type CountDeps, type CountKey } from './pending-counts.ts';

const insertChunkSize = 1000;

function parseCountField(field: string): CountKey {
  const [subjectType, subjectId, type, day] = JSON.parse(field) as [SubjectType, string, string, number];
  return { subjectType, subjectId, type, day };
}

/**
 * Flushes the project's pending counts when the last flush is older than flushEventCountsEveryMs and no other flush is running.
 */
export async function flushCountsWhenDue(deps: CountDeps & Pick<Deps, 'log'>, projectId: string): Promise<void> {
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  if ((await deps.redis.set(names.flushGate, '1', 'PX', flushEventCountsEveryMs, 'NX')) !== 'OK') return;
  await flushCountsUnlessRunning(deps, projectId);
}

/** Runs `work` holding the project's flush lock, waiting at most `waitMs` for a flush already running. */
function underFlushLock(deps: CountDeps, projectId: string, waitMs: number, work: () => Promise<void>): Promise<void> {
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  return withRedisLock(deps.redis, names.flushLock, work, { leaseMs: 10 * 60_000, waitMs });
}

/** Flushes the project's pending counts unless another flush is running, which takes them anyway. */
export async function flushCountsUnlessRunning(deps: CountDeps & Pick<Deps, 'log'>, projectId: string): Promise<void> {
  try {
    await underFlushLock(deps, projectId, 0, () => flushCounts(deps, projectId));
  } catch (error) {
    if (error instanceof LockTimeoutError) return;
    // The counts stay in Redis, where readers see them, and the next flush takes them.
    deps.log.warn({ err: error, projectId }, 'flushing event counts failed; retrying later');
  }
}

/** The projects with counts waiting in Redis (or a flush left half done), found by key without blocking Redis. */
export async function* projectsWithPendingCounts(deps: Pick<Deps, 'redis' | 'config'>): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const kind of ['pending', 'flushing'] as const) {
    const search = redisKeys.eventCountsSearch(deps.config.queuePrefix, kind);
    for await (const key of scanKeys(deps.redis, search.match)) {
      const projectId = search.projectIdOf(key);
      if (!seen.has(projectId)) {
        seen.add(projectId);
        yield projectId;
      }
    }
  }
}

/**
 * Makes sure the counts of every day before `today` are in MongoDB, flushing whatever is pending (after any flush
 * already running) when some are not: readers that group the counter documents server side (segment evaluation)
 * call it first, so no count of a whole day waits in Redis unseen. Today's counts are left to the next flush.
 */
export async function flushFinishedDays(deps: CountDeps, projectId: string, today: Date): Promise<void> {
  if (!(await finishedDaysPending(deps, projectId, today))) return;
  // Asked again under the lock: segments evaluated together all wait for it, and the first flush serves them all.
  await underFlushLock(deps, projectId, 60_000, async () => {
    if (await finishedDaysPending(deps, projectId, today)) await flushCounts(deps, projectId);
  });
}

/** Flushes every pending count of the project, waiting for a flush already running: then MongoDB holds them all. */
export function flushAllCounts(deps: CountDeps, projectId: string): Promise<void> {
  return underFlushLock(deps, projectId, 60_000, () => flushCounts(deps, projectId));
}

// Moves the pending counts and their oldest day aside at once, unless a flush is already under way.
const moveAsideScript = `
if redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[3])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('RENAME', KEYS[2], KEYS[4]) end
return 1`;

/**
 * Finishes a flush that died half way, then flushes what is pending: the documents a dead flush already inserted are
 * refused by _id, so nothing is counted twice.
 */
export async function flushCounts(deps: CountDeps, projectId: string): Promise<void> {
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  if ((await deps.redis.exists(names.flushing)) === 1) await flushMovedCounts(deps, projectId);
  const moved = await deps.redis.eval(
    moveAsideScript,
    4,
    names.pending,
    names.oldestPendingDay,
    names.flushing,
    names.oldestFlushingDay,
  );
  if (moved === 1) await flushMovedCounts(deps, projectId);
}

/**
 * Inserts the counts moved aside (the move is atomic, so increments made meanwhile start a new pending hash) as
 * counter documents of this flush, then deletes them.
 */
async function flushMovedCounts(deps: CountDeps, projectId: string): Promise<void> {
  const names = redisKeys.eventCounts(deps.config.queuePrefix, projectId);
  if ((await deps.redis.hget(names.flushing, flushIdField)) === null) {
    await deps.redis.hsetnx(names.flushing, flushIdField, await deps.redis.incr(names.flushSequence));
  }
  const { [flushIdField]: flushField, ...counts } = await deps.redis.hgetall(names.flushing);
  const flush = Number(flushField);
  const documents = Object.entries(counts).map(([field, count]) => {
    const { subjectType, subjectId, type, day } = parseCountField(field);
    return {
      _id: JSON.stringify([projectId, flush, subjectType, subjectId, type, day]),
      projectId,
      subjectType,
      subjectId,
      type,
      day: new Date(day),
      count: Number(count),
      flush,
    };
  });
  for (const chunk of inChunks(documents, insertChunkSize)) {
    // The raw collection is typed for ObjectId ids, and these documents' _id is a string: hence never[].
    await ignoringDuplicateKeys(chunk.length, () =>
      deps.models.EventCounter.collection.insertMany(chunk as never[], { ordered: false }),
    );
  }
  await deps.redis.del(names.flushing, names.oldestFlushingDay);
}
