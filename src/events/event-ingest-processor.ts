import type { Job, Processor } from 'bullmq';
import type { WorkerContext } from '../worker-runtime/worker-context.ts';
import { eventIngestJobName, type EventIngestJob } from '../queues/event-ingest.ts';
import { EventTypeCatalog } from './event-type-catalog.ts';
import { ingestEvents } from './ingest-events.ts';
import { ActiveJourneys } from '../journeys/active-journeys.ts';
import { triggerJourneys } from '../journeys/trigger-journeys.ts';

/** Stores the events, then starts the journeys they trigger (after storing, so a journey's segment sees them). */
export function eventIngestProcessor(
  context: Pick<WorkerContext, 'models' | 'redis' | 'config' | 'log' | 'queues'>,
): Processor {
  const prefix = context.config.queuePrefix;
  const deps = {
    models: context.models,
    redis: context.redis,
    queuePrefix: prefix,
    catalog: new EventTypeCatalog(context.models),
    log: context.log,
  };
  const journeys = {
    models: context.models,
    sendQueue: context.queues.send,
    journeys: new ActiveJourneys(context.models, context.redis, prefix),
  };
  return async (job: Job<EventIngestJob>) => {
    if (job.name !== eventIngestJobName) throw new Error(`unknown event-ingest job "${job.name}"`);
    await ingestEvents(deps, job.id!, job.data);
    const journeySends = await triggerJourneys(journeys, job.id!, job.data);
    return { stored: job.data.events.length, journeySends };
  };
}
