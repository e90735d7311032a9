import type { Deps } from '../deps.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { historyRetentionSeconds } from '../models/history.ts';

/** How the previous run of a delivery batch ended: there was none, it saved its progress, or it died or threw. */
export type PreviousRun = 'none' | 'clean' | 'unclean';

/**
 * Marks a run of a delivery batch as started and answers how the previous one ended. Only a run after an unclean
 * end, or a run of a batch whose job data starts afresh (a batch queued again by a replayed fan-out), can meet
 * devices with history that the job's saved progress does not know about, so only those look history up. The
 * retry rounds a batch schedules for itself follow a clean end, and skip a look-up of up to a batch of history
 * entries per round, which held the worker's slots when a gateway refused many pushes. The marker lasts as long as
 * history does.
 */
export async function startBatchRun(deps: Pick<Deps, 'redis' | 'config'>, batchId: string): Promise<PreviousRun> {
  const previous = await deps.redis.set(
    redisKeys.batchRun(deps.config.queuePrefix, batchId),
    'running',
    'EX',
    historyRetentionSeconds,
    'GET',
  );
  return previous === null ? 'none' : previous === 'clean' ? 'clean' : 'unclean';
}

/** The run saved its progress: it finished, or it is delayed until its next retry round. */
export async function endBatchRun(deps: Pick<Deps, 'redis' | 'config'>, batchId: string): Promise<void> {
  await deps.redis.set(redisKeys.batchRun(deps.config.queuePrefix, batchId), 'clean', 'EX', historyRetentionSeconds);
}
