import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { eventIngestJobName, type EventIngestJob } from './ingest-job.ts';
import { EventTypeCatalog } from './event-type-catalog.ts';
import { ingestEvents } from './ingest-events.ts';

export function eventIngestProcessor(context: Pick<WorkerContext, 'models'>): Processor {
  const catalog = new EventTypeCatalog(context.models);
  return async (job: Job<EventIngestJob>) => {
    if (job.name !== eventIngestJobName) throw new Error(`unknown event-ingest job "${job.name}"`);
    const stored = await ingestEvents(context.models, catalog, job.id!, job.data);
    return { stored };
  };
}
