import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import { flushCountsJobName } from '../queues/maintenance.ts';
import { eventCounts } from '../events/pending-counts.ts';
import { dailyCounts } from '../overview/daily-counts.ts';
import { eventTypeCounts } from '../events/event-type-counts.ts';
import { flushGatheredCountsUnlessRunning, projectsWithGatheredCounts } from '../infra/flush-gathered-counts.ts';

type MaintenanceDeps = Pick<Deps, 'models' | 'log' | 'redis' | 'config'>;

/** Every kind of counts gathered in Redis, which the sweep flushes for the projects that stopped recording. */
const gatheredCountKinds = [eventCounts, dailyCounts, eventTypeCounts];

async function flushGatheredCounts(deps: MaintenanceDeps): Promise<{ projects: number }> {
  let projects = 0;
  for (const counts of gatheredCountKinds) {
    for await (const projectId of projectsWithGatheredCounts(deps, counts)) {
      await flushGatheredCountsUnlessRunning(deps, counts, projectId);
      projects += 1;
    }
  }
  return { projects };
}

const maintenanceJobs: Record<string, (deps: MaintenanceDeps) => Promise<object>> = {
  [flushCountsJobName]: flushGatheredCounts,
};

export function maintenanceProcessor(deps: MaintenanceDeps): Processor {
  return async (job: Job) => {
    const run = maintenanceJobs[job.name];
    if (!run) throw new Error(`unknown maintenance job "${job.name}"`);
    return run(deps);
  };
}
