import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueDefinition } from './queue-definition.ts';
import type { WebhookEventType } from '../schemas/webhook.ts';
import { inChunks } from '../infra/chunks.ts';

/** What an endpoint is POSTed (CONTRACTS §17). */
export interface WebhookEvent {
  type: WebhookEventType;
  /** When it happened, ISO 8601. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** An event to publish, with what makes it itself: the same key queued twice (a rerun of a batch) is one event. */
export interface KeyedWebhookEvent {
  key: string;
  event: WebhookEvent;
}

/** An event queued for one endpoint, under the webhook-id of every call of it. */
export interface QueuedWebhookEvent {
  webhookId: string;
  event: WebhookEvent;
}

/**
 * Events for one endpoint: each endpoint retries, fails and is disabled on its own. A job of one event has the
 * event's webhook-id as its id and retries that event. A job of several (a gateway call's outcomes) calls each once
 * and queues those that fail as jobs of their own, so that a send's thousands of events cost the queue a job per
 * gateway call rather than one per event, and each event is still retried and replayed under its own id.
 */
export interface WebhookJobData {
  projectId: string;
  endpointId: string;
  events: QueuedWebhookEvent[];
  /** On an event split off its batch: the calls made of it before, and when it was first queued. */
  retry?: { callsMade: number; firstQueuedAt: number };
}

export const webhookJobName = 'webhook';

/**
 * The most events one job calls: a gateway call's share of a send (25 of 500 devices at 5% dead tokens) in one job,
 * while a worker killed mid-job calls again at most this many events per job it had in flight.
 */
export const maxEventsPerWebhookJob = 25;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);

/**
 * An event's webhook-id, the same on every retry and on a replay from the dashboard: derived from the endpoint and the
 * event's key, so that an event queued again (a delivery batch's rerun writing a call's outcomes a second time) is the
 * same job while BullMQ keeps it. `msg_` as the specification's examples write ids.
 */
export function webhookId(endpointId: string, eventKey: string): string {
  return `msg_${digest(`${endpointId}\n${eventKey}`)}`;
}

/** How the webhook worker's backoff strategy (webhookBackoffType) is named in a job's options. */
export const webhookBackoffType = 'webhook';

/**
 * Attempts are bounded by time, not count: the processor stops retrying once the event is older than the retry
 * window. The count here only has to outlast that window at the longest interval (24 hours at one an hour and the
 * doubling start).
 */
const webhookJobOptions: JobsOptions = {
  attempts: 1000,
  backoff: { type: webhookBackoffType },
  removeOnComplete: { age: 24 * 3600, count: 100_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** A job of one event is named by its webhook-id; a batch by its events', so that the same batch queued twice is one. */
function webhookJob(data: WebhookJobData, delay = 0) {
  const [first, ...others] = data.events;
  const jobId = others.length === 0 ? first!.webhookId : `batch_${digest(data.events.map((e) => e.webhookId).join())}`;
  return { name: webhookJobName, data, opts: { ...webhookJobOptions, jobId, ...(delay > 0 && { delay }) } };
}

export type WebhookJob = ReturnType<typeof webhookJob>;

/** An endpoint's events, in jobs of at most maxEventsPerWebhookJob. */
export function webhookJobsFor(projectId: string, endpointId: string, events: KeyedWebhookEvent[]): WebhookJob[] {
  const queued = events.map(({ key, event }) => ({ webhookId: webhookId(endpointId, key), event }));
  return [...inChunks(queued, maxEventsPerWebhookJob)].map((chunk) =>
    webhookJob({ projectId, endpointId, events: chunk }),
  );
}

/** One Redis round trip for all of them, whatever their number. */
export async function enqueueWebhookJobs(deps: Pick<Deps, 'queues'>, jobs: WebhookJob[]): Promise<void> {
  if (jobs.length > 0) await deps.queues.webhook.addBulk(jobs);
}

/**
 * A batch's events whose call failed, each queued alone to be retried at the first retry's delay, carrying when it
 * was first queued so that its own retries keep its schedule and its window.
 */
export async function queueRetriesAlone(
  deps: Pick<Deps, 'queues' | 'config'>,
  batch: WebhookJobData,
  failed: QueuedWebhookEvent[],
  firstQueuedAt: number,
): Promise<void> {
  const delay = webhookRetryDelay(1, deps.config.webhooks.retryBaseMs);
  const retry = { callsMade: 1, firstQueuedAt };
  const { projectId, endpointId } = batch;
  await enqueueWebhookJobs(
    deps,
    failed.map((event) => webhookJob({ projectId, endpointId, events: [event], retry }, delay)),
  );
}

/** The delay before retry number `attempt` (1 for the first): the base, doubling, at most an hour. */
export function webhookRetryDelay(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 3600 * 1000);
}

/** Events POSTed to customers' webhook endpoints. */
export const webhookQueue: QueueDefinition<'webhook'> = {
  name: 'webhook',
  // Calls mostly wait on the receivers (up to 10 s each), so one process keeps many in flight.
  defaultConcurrency: 32,
  backoffStrategy: (attemptsMade, config, job) => {
    const callsBefore = (job?.data as WebhookJobData | undefined)?.retry?.callsMade ?? 0;
    return webhookRetryDelay(callsBefore + attemptsMade, config.webhooks.retryBaseMs);
  },
};
