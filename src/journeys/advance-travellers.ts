import type { AnyBulkWriteOperation } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { TravellerDocument } from '../models/journey-traveller.ts';
import type { StepResult, Traveller } from './steps/step-context.ts';
import { exitTarget } from './journey-graph.ts';
import { addCount, type StatsChanges } from './journey-stats.ts';

/**
 * Records each traveller's step run and moves it on, in one bulk write of updates conditional on the claim and the
 * step count read: a traveller that exited or was taken over meanwhile is left as it is, and a step never counts twice.
 */
export async function advanceTravellers(
  models: Models,
  claim: string,
  stepId: string,
  travellers: Traveller[],
  results: Map<string, StepResult>,
  stats: StatsChanges,
  now: Date,
): Promise<void> {
  const operations: AnyBulkWriteOperation<TravellerDocument>[] = [];
  for (const traveller of travellers) {
    const result = results.get(traveller._id);
    if (!result) continue;
    const done = result.next === exitTarget;
    const passed = result.outcome && { stepId, at: now, outcome: result.outcome };
    operations.push({
      updateOne: {
        filter: { _id: traveller._id, claim, seq: traveller.seq },
        update: {
          $set: {
            state: done ? ('done' as const) : ('due' as const),
            at: done ? null : result.next,
            dueAt: done ? null : (result.dueAt ?? now),
            listening: result.listening ?? null,
            waitingIn: result.waitingIn ?? null,
            claim: null,
            runId: null,
            ...(done && { endReason: 'completed' as const, endedAt: now }),
          },
          $inc: { seq: 1 },
          ...(passed && { $push: { passed } }),
        },
      },
    });
    if (traveller.waitingIn) addCount(stats, `${traveller.waitingIn}.waiting`, -1);
    if (traveller.listening?.stepId !== stepId) addCount(stats, `${stepId}.entered`);
    if (result.waitingIn) addCount(stats, `${result.waitingIn}.waiting`);
    if (done) addCount(stats, 'completed');
  }
  if (operations.length > 0) await models.JourneyTraveller.bulkWrite(operations, { ordered: false });
}
