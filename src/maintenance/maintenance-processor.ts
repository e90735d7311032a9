import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import { flushEventCountsJobName } from '../queues/maintenance.ts';
import { flushCountsUnlessRunning, projectsWithPendingCounts } from '../events/flush-counts.ts';

type MaintenanceDeps = Pick<Deps, 'models' | 'log' | 'redis' | 'config'>;

async function flushEventCounts(deps: MaintenanceDeps): Promise<{ projects: number }> {
  let projects = 0;
  for await (const projectId of projectsWithPendingCounts(deps)) {
    await flushCountsUnlessRunning(deps, projectId);
    projects += 1;
  }
  return { projects };
}

const maintenanceJobs: Record<string, (deps: MaintenanceDeps) => Promise<object>> = {
  [flushEventCountsJobName]: flushEventCounts,
};

export function maintenanceProcessor(deps: MaintenanceDeps): Processor {
  return async (job: Job) => {
    const run = maintenanceJobs[job.name];
    if (!run) throw new Error(`unknown maintenance job "${job.name}"`);
    return run(deps);
  };
}
