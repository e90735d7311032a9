import type { Models } from '../models/index.ts';
import type { IngestedEvent } from '../schemas/events.ts';
import type { StepOf } from '../schemas/journey-steps.ts';
import type { JourneyVersion } from './active-journeys.ts';
import { matchesRule } from './event-rules.ts';
import { exitTarget } from './journey-graph.ts';
import type { Visit } from './visit.ts';
import type { StepDeps } from './steps/step-context.ts';
import { holdForEvent, releaseStepRuns } from './traveller-claims.ts';

const travelling = { $in: ['due' as const, 'running' as const, 'held' as const] };

/** What an exit rule sets on a traveller: it has left, and no step of it is due or listening. */
export const exitedByRule = (at: Date) =>
  ({ state: 'done', endReason: 'exit_rule', endedAt: at, dueAt: null, runId: null, listening: null }) as const;

/** What a traveller's exit adds to its journey's counts: one exited, and one fewer waiting in the wait it was in. */
export function exitCounts(waitingIn: string | null | undefined): Array<[field: string, by: number]> {
  const counts: Array<[string, number]> = [['exited', 1]];
  if (waitingIn) counts.push([`${waitingIn}.waiting`, -1]);
  return counts;
}

/** An exit rule matched: the traveller leaves at once, wherever it is; a step running for it records nothing. */
export async function exitTraveller(models: Models, visit: Visit): Promise<boolean> {
  const result = await models.JourneyTraveller.updateOne(
    { _id: visit._id, state: travelling },
    { $set: exitedByRule(new Date()) },
  );
  return result.modifiedCount === 1;
}

/**
 * An event a waitForEvent step waits for: the traveller goes on to onEvent now, in one write conditional on it still
 * waiting at that step (not timed out and taken by the step runner meanwhile, nor moved on by another event), made
 * under the event's hold on it (holdForEvent), which a claim of its timeout keeps the event from taking. Answers the
 * target it went to, or null when the event did not move it.
 */
export async function hearEvent(
  deps: Pick<StepDeps, 'models' | 'redis' | 'config'>,
  version: JourneyVersion,
  visit: Visit,
  heard: { event: IngestedEvent; eventId: string },
  at: Date,
): Promise<string | null> {
  const listening = visit.listening!;
  const { event } = heard;
  const step = version.steps.find((candidate) => candidate.id === listening.stepId) as StepOf<'waitForEvent'>;
  if (!step || !matchesRule(step, event, visit.entryEvent)) return null;
  const hold = `event:${heard.eventId}`;
  if (!(await holdForEvent(deps, hold, visit))) return null;
  try {
    const result = await deps.models.JourneyTraveller.updateOne(
      // A traveller held by a pause with its step run's runId stored may have had its timeout run: it hears no more.
      { _id: visit._id, state: { $in: ['due', 'held'] }, seq: visit.seq, 'listening.stepId': step.id, runId: null },
      {
        $set: {
          listening: null,
          waitingIn: null,
          runId: null,
          ...(step.onEvent === exitTarget
            ? { state: 'done' as const, at: null, dueAt: null, endReason: 'completed' as const, endedAt: at }
            : { at: step.onEvent, dueAt: at }),
        },
        $inc: { seq: 1 },
        $push: { passed: { stepId: step.id, at, outcome: { heard: event.type } } },
      },
    );
    return result.modifiedCount === 1 ? step.onEvent : null;
  } finally {
    await releaseStepRuns(deps, hold, [visit._id], 'recorded');
  }
}
