import type { Redis } from 'ioredis';
import { historyRetentionSeconds } from '../models/history.ts';

const runKey = (prefix: string, batchId: string) => `${prefix}:batch-running:${batchId}`;

/**
 * Marks a run of a delivery batch as started, and answers whether an earlier run started and never ended cleanly
 * (the process died, or the run threw: MongoDB away, Redis restarted). Only then can devices have history that the
 * job's saved progress does not know about, so only then are they looked up. The retry rounds the batch schedules
 * for itself follow a clean end: looking up history there (a scan of the history collection on FerretDB, which
 * pushes only `_id` down to an index) held the worker's slots for seconds per round when a gateway refused many
 * pushes. The marker lasts as long as history does.
 */
export async function startBatchRun(redis: Redis, prefix: string, batchId: string): Promise<boolean> {
  return (await redis.set(runKey(prefix, batchId), '1', 'EX', historyRetentionSeconds, 'GET')) !== null;
}

/** The run saved its progress (finished, or delayed until its next round or its turn under the rate limit). */
export async function endBatchRun(redis: Redis, prefix: string, batchId: string): Promise<void> {
  await redis.del(runKey(prefix, batchId));
}
