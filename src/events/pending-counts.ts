import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Models } from '../models/index.ts';
import type { SubjectType } from '../models/event.ts';
import { duplicateKeyPositions } from '../infra/bulk-write-errors.ts';
import { LockTimeoutError, withRedisLock } from '../infra/redis-lock.ts';
import { inChunks } from '../infra/update-batches.ts';

/**
 * Daily event counts per subject and type are gathered in Redis, then flushed into MongoDB (event_counters) by one
 * flusher per project at a time. The write cost follows the number of distinct (subject, type, day) rather than the
 * number of events, Redis adds atomically whatever the concurrency, and MongoDB sees a single writer per counter,
 * which FerretDB 1.x needs (it loses one of two concurrent updates of a document). Readers add what is still pending.
 */

export interface CountKey {
  subjectType: SubjectType;
  subjectId: string;
  type: string;
  /** Midnight UTC, in milliseconds. */
  day: number;
}

export interface CountDeps {
  models: Models;
  redis: Redis;
  queuePrefix: string;
}

const flushEveryMs = 5_000;
const recordedMarkerSeconds = 7 * 24 * 3600;
const flushIdField = '#flush';

const keys = (prefix: string, projectId: string) => ({
  pending: `${prefix}:event-counts:pending:${projectId}`,
  flushing: `${prefix}:event-counts:flushing:${projectId}`,
  flushSequence: `${prefix}:event-counts:flush-sequence:${projectId}`,
  flushGate: `${prefix}:event-counts:flush-gate:${projectId}`,
  flushLock: `${prefix}:lock:event-counts-flush:${projectId}`,
  recorded: (jobId: string) => `${prefix}:event-counts:recorded:${jobId}`,
});

export const countField = (key: CountKey): string => JSON.stringify([key.subjectType, key.subjectId, key.type, key.day]);

export function counterId(projectId: string, key: CountKey): string {
  return JSON.stringify([projectId, key.subjectType, key.subjectId, key.type, key.day]);
}

// Adds a job's counts once: a retried job finds its marker and adds nothing.
const recordScript = `
if redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX') then
  for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
return 0`;

export async function recordCounts(redis: Redis, prefix: string, projectId: string, jobId: string, counts: Map<string, number>): Promise<void> {
  if (counts.size === 0) return;
  const names = keys(prefix, projectId);
  await redis.eval(recordScript, 2, names.recorded(jobId), names.pending, recordedMarkerSeconds, ...[...counts].flat());
}

/** Counts added in Redis and not yet in MongoDB, for the given fields. */
export async function pendingCounts(deps: CountDeps, projectId: string, keysToRead: CountKey[]): Promise<{ pending: number[]; flushing: number[]; flushId: number | null }> {
  const names = keys(deps.queuePrefix, projectId);
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

/** Flushes the project's pending counts when the last flush is older than flushEveryMs and no other flush is running. */
export async function flushCountsWhenDue(deps: CountDeps, projectId: string, log: Logger): Promise<void> {
  const names = keys(deps.queuePrefix, projectId);
  if ((await deps.redis.set(names.flushGate, '1', 'PX', flushEveryMs, 'NX')) !== 'OK') return;
  try {
    await withRedisLock(deps.redis, names.flushLock, () => flushCounts(deps, projectId), { leaseMs: 10 * 60_000, waitMs: 0 });
  } catch (error) {
    if (error instanceof LockTimeoutError) return;
    // The counts stay in Redis, where readers see them, and the next flush takes them.
    log.warn({ err: error, projectId }, 'flushing event counts failed; retrying later');
  }
}

/**
 * Moves the pending counts aside (RENAME is atomic, so increments made meanwhile start a new pending hash), adds
 * them to the counters and deletes them. A flush that died half way is finished first: counters already carrying
 * its id are skipped, so nothing is added twice.
 */
export async function flushCounts(deps: CountDeps, projectId: string): Promise<void> {
  const names = keys(deps.queuePrefix, projectId);
  if ((await deps.redis.exists(names.flushing)) === 0) {
    const moved = await deps.redis.renamenx(names.pending, names.flushing).catch((error: Error) => {
      if (/no such key/i.test(error.message)) return 0;
      throw error;
    });
    if (moved === 0) return;
  }
  let flushId = Number(await deps.redis.hget(names.flushing, flushIdField));
  if (!flushId) {
    flushId = await deps.redis.incr(names.flushSequence);
    await deps.redis.hsetnx(names.flushing, flushIdField, flushId);
    flushId = Number(await deps.redis.hget(names.flushing, flushIdField));
  }
  const entries = Object.entries(await deps.redis.hgetall(names.flushing)).filter(([field]) => field !== flushIdField);
  for (const chunk of inChunks(entries)) {
    const operations = chunk.map(([field, count]) => {
      const [subjectType, subjectId, type, day] = JSON.parse(field) as [SubjectType, string, string, number];
      const key = { subjectType, subjectId, type, day };
      return {
        updateOne: {
          filter: { _id: counterId(projectId, key), lastFlush: { $lt: flushId } },
          update: {
            $inc: { count: Number(count) },
            $set: { lastFlush: flushId },
            $setOnInsert: { projectId, subjectType, subjectId, type, day: new Date(day) },
          },
          upsert: true,
        },
      };
    });
    try {
      await deps.models.EventCounter.collection.bulkWrite(operations as never[], { ordered: false });
    } catch (error) {
      // A counter that already carries this flush fails the filter, and its upsert hits the existing _id: applied before.
      if (duplicateKeyPositions(error) === null) throw error;
    }
  }
  await deps.redis.del(names.flushing);
}
