import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { EventDocument } from '../models/event.ts';
import { ignoringDuplicateKeys } from '../infra/ignore-duplicate-keys.ts';
import type { EventIngestJob } from '../queues/event-ingest.ts';
import type { EventTypeCatalog } from './event-type-catalog.ts';
import { toStoredData } from '../conditions/event-data.ts';
import { startOfUtcDay } from '../infra/utc-day.ts';
import { countField, recordCounts } from './pending-counts.ts';
import { flushCountsWhenDue } from './flush-counts.ts';
import { recordDisplays } from './in-app-displays.ts';

/** The event types this worker has already seen are kept in its catalog, so most jobs skip writing them. */
export type IngestDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'log'> & { catalog: EventTypeCatalog };

type StoredEvent = EventDocument & { _id: string };

/** Inserts the events; those an earlier attempt of the job already stored are refused by _id and skipped. */
async function insertEvents(models: Models, events: StoredEvent[]): Promise<void> {
  // The raw collection is typed for ObjectId ids, and these documents' _id is a string: hence never[].
  await ignoringDuplicateKeys(events.length, () =>
    models.Event.collection.insertMany(events as never[], { ordered: false }),
  );
}

/**
 * The job's events merged per (subject, type), all of the day they were received, so that a busy subject costs one
 * increment per request.
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
 * Stores one request's events in a few round trips whatever their number: the events in one insertMany, their daily
 * counts in one Redis script, the catalog only for types this worker has not seen yet. Every step is safe to repeat,
 * so a failed job is simply retried: the counts' Redis marker covers a retry within its hour (and a run that stopped
 * between the two), the job's own countsRecorded a replay from the dashboard as long as the job is kept.
 */
export async function ingestEvents(
  deps: IngestDeps,
  jobId: string,
  job: EventIngestJob,
  markCountsRecorded: () => Promise<void>,
): Promise<void> {
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
  await insertEvents(deps.models, events);
  const day = startOfUtcDay(receivedAt).getTime();
  if (!job.countsRecorded) {
    await recordCounts(deps, job.projectId, jobId, dailyCounts(events, day), day);
    await markCountsRecorded();
  }
  await deps.catalog.add(
    job.projectId,
    job.events.map((event) => event.type),
    'auto',
  );
  await flushCountsWhenDue(deps, job.projectId);
}
