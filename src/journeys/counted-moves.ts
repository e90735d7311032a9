import type { AnyBulkWriteOperation } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import { addCount, type StatsChanges } from './journey-stats.ts';
import { leavesNow, type Move } from './fold-record-only.ts';
import { exitTarget } from './journey-graph.ts';
import type { Traveller } from './steps/step-context.ts';

/** What one traveller's move adds to its journey's counts, by field. */
export type TravellerCounts = Map<string, Array<[field: string, by: number]>>;

/**
 * What a traveller's move from the step adds to the counts: each step it entered (a waitForEvent it listened at it
 * had, and the exit none), the wait it left and the one it now waits in, and its completion.
 */
export function countsOf(stepId: string, traveller: Traveller, { steps, result }: Move): Array<[string, number]> {
  const counts: Array<[string, number]> = [];
  if (traveller.waitingIn) counts.push([`${traveller.waitingIn}.waiting`, -1]);
  if (stepId !== exitTarget && traveller.listening?.stepId !== stepId) counts.push([`${stepId}.entered`, 1]);
  for (const { stepId: passedId } of steps.slice(1)) counts.push([`${passedId}.entered`, 1]);
  if (result.waitingIn) counts.push([`${result.waitingIn}.waiting`, 1]);
  if (leavesNow(result)) counts.push(['completed', 1]);
  return counts;
}

/** Those of `ids` whose last move was the write `move` (the field each move sets). */
async function movedByWrite(models: Models, move: string, ids: string[]): Promise<Set<string>> {
  const moved = await models.JourneyTraveller.find({ _id: { $in: ids }, movedBy: move }, { _id: 1 }).lean();
  return new Set(moved.map((traveller) => String(traveller._id)));
}

/**
 * Writes a batch's moves (each conditional on the batch's claim, each setting `movedBy` to `move`, an id of this write
 * alone), then adds the counts of the travellers it moved, and only theirs: a traveller it did not move (it left
 * meanwhile, or the write failed and the step runs again for it) is counted by the write that does, so that each
 * (traveller, visit, step) counts once. When every traveller matched, all moved; otherwise (fewer matched, or the write
 * failed, maybe after the server applied it) the travellers are read back by the write that last moved them: not by
 * the claim, as one claim moves a traveller through several steps due at once. Answers those it moved.
 */
export async function moveCounted(
  models: Models,
  move: string,
  operations: AnyBulkWriteOperation<TravellerDocument>[],
  moving: number,
  counts: TravellerCounts,
  stats: StatsChanges,
): Promise<Set<string> | 'all'> {
  if (operations.length === 0) return 'all';
  let failure: unknown;
  let moved: Set<string> | 'all' = 'all';
  try {
    const answer = await models.JourneyTraveller.bulkWrite(operations, { ordered: false });
    if (answer.matchedCount !== moving) moved = await movedByWrite(models, move, [...counts.keys()]);
  } catch (error) {
    failure = error;
    moved = await movedByWrite(models, move, [...counts.keys()]);
  }
  for (const [id, changes] of counts)
    if (moved === 'all' || moved.has(id)) for (const [field, by] of changes) addCount(stats, field, by);
  if (failure !== undefined) throw failure;
  return moved;
}
