import type { Queue } from 'bullmq';

export interface IngestedEvent {
  type: string;
  subjectType: 'device' | 'user';
  subjectId: string;
  data: Record<string, unknown>;
}

/** One job per accepted request: the worker writes its events in one batch. */
export interface EventIngestJob {
  projectId: string;
  receivedAt: string;
  events: IngestedEvent[];
}

export const eventIngestJobName = 'ingest';

export async function enqueueEvents(queue: Queue, projectId: string, events: IngestedEvent[]): Promise<void> {
  const job: EventIngestJob = { projectId, receivedAt: new Date().toISOString(), events };
  await queue.add(eventIngestJobName, job);
}
