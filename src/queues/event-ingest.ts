import { Types } from 'mongoose';
import type { JobsOptions } from 'bullmq';
import type { IngestedEvent } from '../schemas/events.ts';
import type { Deps } from '../deps.ts';
import type { QueueDefinition } from './queue-definition.ts';

/** One job per accepted request, or per project for a burst of new devices: the worker writes its events in one batch. */
export interface EventIngestJob {
  projectId: string;
  receivedAt: string;
  events: IngestedEvent[];
  /** Set once the job's daily counts were added: a replay from the dashboard, days later, adds nothing again. */
  countsRecorded?: true;
}

/**
 * A job's name says its project, so the queue's pending events can be told apart by project without reading their
 * data (pending-events.ts). Jobs queued by a build before that are named `ingest` alone.
 */
export const eventIngestJobPrefix = 'ingest:';
export const eventIngestJobName = (projectId: string): string => `${eventIngestJobPrefix}${projectId}`;
export const isEventIngestJob = (name: string): boolean => name === 'ingest' || name.startsWith(eventIngestJobPrefix);

/**
 * Retries ride out a database outage; the worker derives event ids from the job id, so a retried job never stores
 * an event twice. Job ids are ObjectIds rather than BullMQ's counter, which starts again if Redis loses its data.
 * Only the last 1,000 finished jobs stay for the dashboard: at thousands of events a second, keeping them for hours
 * would fill Redis.
 */
const ingestJobOptions: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** ObjectIds, which order the events of requests received in the same millisecond. */
export const newIngestJobId = (): string => new Types.ObjectId().toHexString();

/** `jobId`: an Idempotency-Key's (ingestJobIdFor), or a new one. */
export async function enqueueEvents(
  deps: Pick<Deps, 'queues'>,
  projectId: string,
  events: IngestedEvent[],
  jobId = newIngestJobId(),
): Promise<void> {
  const job: EventIngestJob = { projectId, receivedAt: new Date().toISOString(), events };
  await deps.queues.eventIngest.add(eventIngestJobName(projectId), job, { ...ingestJobOptions, jobId });
}

/** Reported events stored and counted, and the journeys they trigger started. */
export const eventIngestQueue: QueueDefinition<'event-ingest'> = {
  name: 'event-ingest',
  defaultConcurrency: 8,
};
