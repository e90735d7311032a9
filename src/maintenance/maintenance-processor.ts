import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { purgeHistoryJobName } from '../queues/purge-history-schedule.ts';
import { purgeExpiredHistory } from '../history/purge-expired-history.ts';

export function maintenanceProcessor(context: Pick<WorkerContext, 'models' | 'log'>): Processor {
  return async (job: Job) => {
    if (job.name !== purgeHistoryJobName) throw new Error(`unknown maintenance job "${job.name}"`);
    const deleted = await purgeExpiredHistory(context.models);
    context.log.info({ deleted }, 'purged history older than 30 days');
    return { deleted };
  };
}
