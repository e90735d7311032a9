import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { eventIngestJobName, type EventIngestJob } from './ingest-job.ts';
import { EventTypeCatalog } from './event-type-catalog.ts';
import { ingestEvents } from './ingest-events.ts';

export function eventIngestProcessor(context: Pick<WorkerContext, 'models' | 'redis' | 'config' | 'log'>): Processor {
  const deps = {
    models: context.models,
    redis: context.redis,
    queuePrefix: context.config.queuePrefix,
    catalog: new EventTypeCatalog(context.models),
    log: context.log,
  };
  return async (job: Job<EventIngestJob>) => {
    if (job.name !== eventIngestJobName) throw new Error(`unknown event-ingest job "${job.name}"`);
    await ingestEvents(deps, job.id!, job.data);
    return { stored: job.data.events.length };
  };
}
