import type { Job, Processor } from 'bullmq';
import type { Deps } from '../deps.ts';
import { isEventIngestJob, type EventIngestJob } from '../queues/event-ingest.ts';
import { EventTypeCatalog } from '../events/event-type-catalog.ts';
import { ingestEvents } from '../events/ingest-events.ts';
import { flushCountsUnlessRunning } from '../events/flush-counts.ts';
import { ActiveJourneys } from '../journeys/active-journeys.ts';
import { travelEvents } from '../journeys/travel-events.ts';
import { ProjectSettingsCache } from '../projects/project-settings-cache.ts';

/**
 * Stores the events, then matches them with the journeys' rules: entries, exits and awaited events (after storing, so
 * a journey's audience sees them). A flush of the event counts the job made due comes last: travellers enter and move
 * on without waiting for its writes.
 */
export function eventIngestProcessor(deps: Pick<Deps, 'models' | 'redis' | 'config' | 'log' | 'queues'>): Processor {
  // The catalog, the active journeys and the settings are this worker's caches, kept from job to job.
  const workerDeps = {
    ...deps,
    catalog: new EventTypeCatalog(deps.models),
    activeJourneys: new ActiveJourneys(deps),
    settings: new ProjectSettingsCache(deps.models),
  };
  return async (job: Job<EventIngestJob>) => {
    if (!isEventIngestJob(job.name)) throw new Error(`unknown event-ingest job "${job.name}"`);
    const flushDue = await ingestEvents(workerDeps, job.id!, job.data, () =>
      job.updateData({ ...job.data, countsRecorded: true }),
    );
    const entered = await travelEvents(workerDeps, job.id!, job.data);
    if (flushDue) await flushCountsUnlessRunning(workerDeps, job.data.projectId);
    return { stored: job.data.events.length, entered };
  };
}
