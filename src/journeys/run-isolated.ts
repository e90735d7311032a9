import type { StepOf, StepType } from '../schemas/journey-steps.ts';
import type { StepContext, StepResult, Traveller } from './steps/step-context.ts';
import { stepRuns } from './steps/step-runs.ts';
import { failureReason } from './fail-travellers.ts';

type Run = (context: StepContext, step: StepOf<StepType>, travellers: Traveller[]) => Promise<Map<string, StepResult>>;

/**
 * The step run for the group; when it throws, for each traveller alone, so that a failure for one keeps none of the
 * others back (a push step's group is one notification: its failure is the whole group's). Answers the results, and
 * the reason of each traveller it failed for.
 */
export async function runIsolated(context: StepContext, step: StepOf<StepType>, group: Traveller[]) {
  const run = stepRuns[step.type] as Run;
  try {
    return { results: await run(context, step, group), failed: new Map<string, string>() };
  } catch (error) {
    if (group.length === 1 || step.type === 'push')
      return {
        results: new Map<string, StepResult>(),
        failed: new Map(group.map((t) => [t._id, failureReason(error)])),
      };
  }
  const results = new Map<string, StepResult>();
  const failed = new Map<string, string>();
  for (const traveller of group)
    try {
      for (const [id, result] of await run(context, step, [traveller])) results.set(id, result);
    } catch (error) {
      failed.set(traveller._id, failureReason(error));
    }
  return { results, failed };
}
