import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import { MicroBatchedInserts } from '../infra/micro-batched-inserts.ts';
import { weakMemoize } from '../infra/weak-memoize.ts';
import type { EventIngestJob } from '../queues/event-ingest.ts';
import type { EventTypeCatalog } from './event-type-catalog.ts';
import { toStoredData } from '../conditions/event-data.ts';
import { startOfUtcDay } from '../infra/utc-day.ts';
import { countField, eventCounts, recordedMarkerSeconds } from './pending-counts.ts';
import { recordGatheredCounts } from '../infra/gathered-counts.ts';
import { recordDisplays } from './in-app-displays.ts';
import { eventTypeCounts, typeDayCounts } from './event-type-counts.ts';
import { flushGatheredCountsUnlessRunning } from '../infra/flush-gathered-counts.ts';
import { attributeConversions } from '../conversions/attribute-conversions.ts';
import type { ProjectSettingsCache } from '../projects/project-settings-cache.ts';

/**
 * The event types this worker has already seen are kept in its catalog, so most jobs skip writing them; the projects'
 * conversion events are read at most once a second.
 */
export type IngestDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'log' | 'queues'> & {
  catalog: EventTypeCatalog;
  settings: ProjectSettingsCache;
};

type StoredEvent = EventDocument & { _id: string };

/**
 * The events of the jobs a worker runs at once go in one insert; those an earlier attempt of a job already stored are
 * refused by _id and skipped.
 */
const eventInserts = weakMemoize((models: Models) => new MicroBatchedInserts(models.Event.collection));

/**
 * The job's events merged per (subject, type), all of the day they were received, so that a busy subject costs one
 * increment per job.
 */
function dailyCounts(events: StoredEvent[], day: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    const field = countField({ subjectType: event.subjectType, subjectId: event.subjectId, type: event.type, day });
    counts.set(field, (counts.get(field) ?? 0) + 1);
  }
  return counts;
}

/**
 * Stores one job's events in a few round trips whatever their number: the events in one insert (with those of the jobs
 * the worker runs beside it), their conversions credited (one Redis script per event of a conversion type), their daily
 * counts in one Redis script, the catalog only for types this worker has not seen yet. Every step is safe to repeat, so
 * a failed job is simply retried: the counts' Redis marker covers a retry within its hour (and a run that stopped
 * between the two), the job's own countsRecorded a replay from the dashboard as long as the job is kept.
 *
 * Answers whether the project's event counts are due a flush (flushCountsUnlessRunning), left to the caller: a flush
 * writes a minute's counts, one document per subject, and the events' journeys should not wait for it.
 */
export async function ingestEvents(
  deps: IngestDeps,
  jobId: string,
  job: EventIngestJob,
  markCountsRecorded: () => Promise<void>,
): Promise<boolean> {
  const receivedAt = new Date(job.receivedAt);
  const events = job.events.map(
    (event, index): StoredEvent => ({
      _id: `${jobId}:${String(index).padStart(3, '0')}`,
      projectId: job.projectId,
      type: event.type,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      data: toStoredData(event.data),
      receivedAt,
    }),
  );
  // Before the events: whoever sees a showing stored finds it kept on the device too.
  await recordDisplays(deps.models, job.projectId, events);
  await eventInserts(deps.models).insert(events);
  const conversions = (await deps.settings.get(job.projectId))?.conversions ?? [];
  await attributeConversions(
    deps,
    job.projectId,
    conversions,
    job.events.map((event, index) => ({ ...event, id: events[index]!._id, at: receivedAt.getTime() })),
    jobId,
  );
  const day = startOfUtcDay(receivedAt).getTime();
  let flushDue = false;
  if (!job.countsRecorded) {
    flushDue = await recordGatheredCounts(deps, eventCounts, job.projectId, dailyCounts(events, day), {
      once: { marker: jobId, seconds: recordedMarkerSeconds },
      oldestDay: day,
    });
    const typesDue = await recordGatheredCounts(
      deps,
      eventTypeCounts,
      job.projectId,
      typeDayCounts(
        events.map((event) => event.type),
        day,
      ),
      { once: { marker: jobId, seconds: recordedMarkerSeconds }, oldestDay: day },
    );
    await markCountsRecorded();
    if (typesDue) await flushGatheredCountsUnlessRunning(deps, eventTypeCounts, job.projectId);
  }
  await deps.catalog.add(
    job.projectId,
    job.events.map((event) => event.type),
    'auto',
  );
  return flushDue;
}
