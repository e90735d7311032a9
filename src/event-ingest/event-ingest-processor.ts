import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import { eventIngestJobName, type EventIngestJob } from '../queues/event-ingest.ts';
import { EventTypeCatalog } from '../events/event-type-catalog.ts';
import { ingestEvents } from '../events/ingest-events.ts';
import { ActiveJourneys } from '../journeys/active-journeys.ts';
import { triggerJourneys } from '../journeys/trigger-journeys.ts';

/** Stores the events, then starts the journeys they trigger (after storing, so a journey's segment sees them). */
export function eventIngestProcessor(deps: Pick<Deps, 'models' | 'redis' | 'config' | 'log' | 'queues'>): Processor {
  // The catalog and the active journeys are this worker's caches, kept from job to job.
  const workerDeps = { ...deps, catalog: new EventTypeCatalog(deps.models), activeJourneys: new ActiveJourneys(deps) };
  return async (job: Job<EventIngestJob>) => {
    if (job.name !== eventIngestJobName) throw new Error(`unknown event-ingest job "${job.name}"`);
    await ingestEvents(workerDeps, job.id!, job.data, () => job.updateData({ ...job.data, countsRecorded: true }));
    const journeySends = await triggerJourneys(workerDeps, job.id!, job.data);
    return { stored: job.data.events.length, journeySends };
  };
}
