import type { Job, Processor } from 'bullmq';
import { journeyStepsJobName } from '../queues/journey-steps.ts';
import { ShortLivedCache } from '../infra/short-lived-cache.ts';
import { readProjectSettings } from '../projects/project-settings.ts';
import type { StepDeps } from './steps/step-context.ts';
import { DueBacklog } from './due-backlog.ts';
import { runClaimedSteps, type RunnerState } from './run-claimed-steps.ts';

/** A run stops claiming after this long, so that a backlog spreads over the next runs and their workers. */
const runBudgetMs = 5000;

export async function runDueSteps(deps: StepDeps, state: RunnerState, backlog: DueBacklog): Promise<{ ran: number }> {
  const started = Date.now();
  let ran = 0;
  while (Date.now() - started < runBudgetMs) {
    // Another worker may have taken these first: then there may be more behind them.
    const batch = await backlog.runNextBatch(deps.config.journeyClaimLeaseMs, (claim, travellers) =>
      runClaimedSteps(deps, state, claim, travellers),
    );
    if (batch.found === 0) break;
    ran += batch.ran;
  }
  return { ran };
}

export function journeyStepsProcessor(deps: StepDeps): Processor {
  const zones = new ShortLivedCache<string>(1000);
  const defaultZone = (projectId: string) =>
    zones.get(projectId, async () => (await readProjectSettings(deps.models, projectId))?.defaultTimezone ?? 'UTC');
  const state: RunnerState = { defaultZone, versions: new Map() };
  const backlog = new DueBacklog(deps);
  return async (job: Job) => {
    if (job.name !== journeyStepsJobName) throw new Error(`unknown journey-steps job "${job.name}"`);
    return runDueSteps(deps, state, backlog);
  };
}
