import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { flushEventCountsJobName } from '../queues/maintenance.ts';
import { countDeps, flushCountsUnlessRunning, projectsWithPendingCounts } from '../events/pending-counts.ts';

type MaintenanceContext = Pick<WorkerContext, 'models' | 'log' | 'redis' | 'config'>;

async function flushEventCounts(context: MaintenanceContext): Promise<{ projects: number }> {
  const deps = countDeps(context);
  let projects = 0;
  for await (const projectId of projectsWithPendingCounts(context.redis, context.config.queuePrefix)) {
    await flushCountsUnlessRunning(deps, projectId, context.log);
    projects += 1;
  }
  return { projects };
}

const maintenanceJobs: Record<string, (context: MaintenanceContext) => Promise<object>> = {
  [flushEventCountsJobName]: flushEventCounts,
};

export function maintenanceProcessor(context: MaintenanceContext): Processor {
  return async (job: Job) => {
    const run = maintenanceJobs[job.name];
    if (!run) throw new Error(`unknown maintenance job "${job.name}"`);
    return run(context);
  };
}
