import { scanKeys } from './redis.ts';
import { redisKeys } from './redis-keys.ts';
import { LockTimeoutError, withRedisLock } from './redis-lock.ts';
import {
  countKeys,
  flushIdField,
  recordGatheredCounts,
  type CountStore,
  type LoggingCountStore,
  type GatheredCounts,
  type RecordOptions,
} from './gathered-counts.ts';

/** Runs `work` holding the project's flush lock, waiting at most `waitMs` for a flush already running. */
function underFlushLock(
  store: CountStore,
  counts: { name: string },
  projectId: string,
  waitMs: number,
  work: () => Promise<void>,
): Promise<void> {
  return withRedisLock(store.redis, countKeys(store, counts, projectId).flushLock, work, {
    leaseMs: 10 * 60_000,
    waitMs,
  });
}

/**
 * Adds the counts, and flushes the project's when its last flush is older than the kind's period (the first record
 * after it opens the gate) and no other flush is running.
 */
export async function addGatheredCounts<Writer>(
  deps: Writer & LoggingCountStore,
  counts: GatheredCounts<Writer>,
  projectId: string,
  added: Map<string, number>,
  options?: RecordOptions,
): Promise<void> {
  if (await recordGatheredCounts(deps, counts, projectId, added, options)) {
    await flushGatheredCountsUnlessRunning(deps, counts, projectId);
  }
}

/** Flushes the project's counts unless another flush is running, which takes them anyway. */
export async function flushGatheredCountsUnlessRunning<Writer>(
  deps: Writer & LoggingCountStore,
  counts: GatheredCounts<Writer>,
  projectId: string,
): Promise<void> {
  try {
    await underFlushLock(deps, counts, projectId, 0, () => flushGatheredCounts(deps, counts, projectId));
  } catch (error) {
    if (error instanceof LockTimeoutError) return;
    // The counts stay in Redis, where readers see them, and the next flush takes them.
    deps.log.warn({ err: error, projectId, counts: counts.name }, 'flushing gathered counts failed; retrying later');
  }
}

/** Flushes every count of the project, waiting for a flush already running: then the database holds them all. */
export function flushAllGatheredCounts<Writer>(
  deps: Writer & CountStore,
  counts: GatheredCounts<Writer>,
  projectId: string,
): Promise<void> {
  return underFlushLock(deps, counts, projectId, 60_000, () => flushGatheredCounts(deps, counts, projectId));
}

/**
 * Flushes under the project's lock only when `stillDue` says so once the lock is held: callers that wait for the same
 * counts together are all served by the first flush.
 */
export function flushGatheredCountsIf<Writer>(
  deps: Writer & CountStore,
  counts: GatheredCounts<Writer>,
  projectId: string,
  stillDue: () => Promise<boolean>,
): Promise<void> {
  return underFlushLock(deps, counts, projectId, 60_000, async () => {
    if (await stillDue()) await flushGatheredCounts(deps, counts, projectId);
  });
}

/** The projects with counts of this kind waiting in Redis (or a flush left half done), found without blocking Redis. */
export async function* projectsWithGatheredCounts(store: CountStore, counts: { name: string }): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const state of ['pending', 'flushing'] as const) {
    const search = redisKeys.gatheredCountsSearch(store.config.queuePrefix, counts.name, state);
    for await (const key of scanKeys(store.redis, search.match)) {
      const projectId = search.projectIdOf(key);
      if (!seen.has(projectId)) {
        seen.add(projectId);
        yield projectId;
      }
    }
  }
}

// Moves the pending counts and their oldest day aside at once, unless a flush is already under way.
const moveAsideScript = `
if redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[3])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('RENAME', KEYS[2], KEYS[4]) end
return 1`;

/**
 * Finishes a flush that died half way, then flushes what is pending. Call it holding the project's flush lock: two
 * flushes at once could delete counts the other has just moved aside and not yet written.
 */
export async function flushGatheredCounts<Writer>(
  deps: Writer & CountStore,
  counts: GatheredCounts<Writer>,
  projectId: string,
): Promise<void> {
  const names = countKeys(deps, counts, projectId);
  if ((await deps.redis.exists(names.flushing)) === 1) await flushMovedCounts(deps, counts, projectId);
  const moved = await deps.redis.eval(
    moveAsideScript,
    4,
    names.pending,
    names.oldestPendingDay,
    names.flushing,
    names.oldestFlushingDay,
  );
  if (moved === 1) await flushMovedCounts(deps, counts, projectId);
}

/**
 * Writes the counts moved aside (the move is atomic, so counts added meanwhile start a new pending hash) under the
 * flush's number, given once and kept with them, then deletes them.
 */
async function flushMovedCounts<Writer>(
  deps: Writer & CountStore,
  counts: GatheredCounts<Writer>,
  projectId: string,
): Promise<void> {
  const names = countKeys(deps, counts, projectId);
  if ((await deps.redis.hget(names.flushing, flushIdField)) === null) {
    await deps.redis.hsetnx(names.flushing, flushIdField, await deps.redis.incr(names.flushSequence));
  }
  const { [flushIdField]: flush, ...moved } = await deps.redis.hgetall(names.flushing);
  const entries = Object.entries(moved).map(([field, count]): [string, number] => [field, Number(count)]);
  await counts.write(deps, projectId, Number(flush), entries);
  await deps.redis.del(names.flushing, names.oldestFlushingDay);
}
