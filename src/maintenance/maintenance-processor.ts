import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { flushEventCountsJobName, purgeHistoryJobName } from '../queues/maintenance-schedules.ts';
import { purgeExpiredHistory } from '../history/purge-expired-history.ts';
import { countDeps, flushCountsUnlessRunning, projectsWithPendingCounts } from '../events/pending-counts.ts';

type MaintenanceContext = Pick<WorkerContext, 'models' | 'log' | 'redis' | 'config'>;

async function purgeHistory(context: MaintenanceContext): Promise<{ deleted: number }> {
  const deleted = await purgeExpiredHistory(context.models);
  context.log.info({ deleted }, 'purged history older than 30 days');
  return { deleted };
}

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
  [purgeHistoryJobName]: purgeHistory,
  [flushEventCountsJobName]: flushEventCounts,
};

export function maintenanceProcessor(context: MaintenanceContext): Processor {
  return async (job: Job) => {
    const run = maintenanceJobs[job.name];
    if (!run) throw new Error(`unknown maintenance job "${job.name}"`);
    return run(context);
  };
}
