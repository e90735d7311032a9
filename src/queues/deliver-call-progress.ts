import type { Job } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { DeliverJobData, DeliveryTally, UnrecordedOutcomes } from './deliver.ts';
import { incrementArguments, incrementsScript, type HashIncrement } from '../infra/hash-increments.ts';

/**
 * What a delivery run saves after each gateway call, in the job's progress field and not its data: the devices settled
 * since the data was last saved, the batch's counts and the outcomes not yet written to MongoDB. A call so writes what
 * it changed, not the batch's devices again.
 */
export interface CallProgress {
  /** The save of the data it follows (DeliverJobData.saves): a later save of the data holds all of it. */
  afterSave: number;
  done: string[];
  tally: DeliveryTally;
  unrecorded: UnrecordedOutcomes;
}

const isCallProgress = (progress: unknown): progress is CallProgress =>
  typeof progress === 'object' && progress !== null && 'afterSave' in progress;

/**
 * The batch as its runs left it: its data, with the progress a run saved after the data's last save. A held parts' plan
 * saved before it was queued before the call (splitOffHeld), and its devices are among the call's progress's done.
 */
export function latestBatchData(job: Pick<Job<DeliverJobData>, 'data' | 'progress'>): DeliverJobData {
  const { data, progress } = job;
  if (!isCallProgress(progress) || progress.afterSave !== (data.saves ?? 0)) return data;
  const { holding: _queued, ...saved } = data;
  const done = [...new Set([...(data.done ?? []), ...progress.done])];
  return { ...saved, done, tally: progress.tally, unrecorded: progress.unrecorded };
}

/**
 * BullMQ's progress field of the job's own hash, set as updateProgress sets it but without the progress event it also
 * streams, which would copy each call's progress into the queue's events stream. A job already removed is left removed.
 * The call's metrics are counted in the same round trip, before its progress (incrementsScript).
 */
const saveProgressScript = `${incrementsScript}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'progress', ARGV[1])
return 1`;

export async function saveCallProgress(
  deps: Pick<Deps, 'redis' | 'queues'>,
  job: Job<DeliverJobData>,
  progress: CallProgress,
  metrics: HashIncrement[],
): Promise<void> {
  const { keys, args } = incrementArguments(metrics);
  const jobKey = deps.queues.deliver.toKey(job.id!);
  await deps.redis.eval(saveProgressScript, 1 + keys.length, jobKey, ...keys, JSON.stringify(progress), ...args);
  job.progress = progress;
}
