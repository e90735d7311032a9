import {
  flushAllGatheredCounts,
  flushGatheredCounts,
  flushGatheredCountsIf,
  flushGatheredCountsUnlessRunning,
} from '../infra/flush-gathered-counts.ts';
import { holdsCountsBefore } from '../infra/gathered-counts.ts';
import type { Deps } from '../deps.ts';
import { eventCounts, type CountDeps } from './pending-counts.ts';

/** Flushes the project's pending event counts unless another flush is running, which takes them anyway. */
export const flushCountsUnlessRunning = (deps: CountDeps & Pick<Deps, 'log'>, projectId: string) =>
  flushGatheredCountsUnlessRunning(deps, eventCounts, projectId);

/**
 * Makes sure the counts of every day before `today` are in MongoDB, flushing whatever is pending (after any flush
 * already running) when some are not: readers that group the counter documents server side (segment evaluation)
 * call it first, so no count of a whole day waits in Redis unseen. Today's counts are left to the next flush.
 */
export async function flushFinishedDays(deps: CountDeps, projectId: string, today: Date): Promise<void> {
  const pending = () => holdsCountsBefore(deps, eventCounts, projectId, today);
  // Asked again under the lock: segments evaluated together all wait for it, and the first flush serves them all.
  if (await pending()) await flushGatheredCountsIf(deps, eventCounts, projectId, pending);
}

/** Flushes every pending event count of the project, waiting for a flush already running. */
export const flushAllCounts = (deps: CountDeps, projectId: string) =>
  flushAllGatheredCounts(deps, eventCounts, projectId);

/** Finishes a flush that died half way, then flushes what is pending; call it holding the flush lock. */
export const flushCounts = (deps: CountDeps, projectId: string) => flushGatheredCounts(deps, eventCounts, projectId);
