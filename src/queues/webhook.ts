import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { Deps } from '../deps.ts';
import type { QueueDefinition } from './queue-definition.ts';
import type { WebhookEventType } from '../schemas/webhook.ts';

/** What an endpoint is POSTed (CONTRACTS §17). */
export interface WebhookEvent {
  type: WebhookEventType;
  /** When it happened, ISO 8601. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** One event for one endpoint: each endpoint retries, fails and is disabled on its own. */
export interface WebhookJobData {
  projectId: string;
  endpointId: string;
  event: WebhookEvent;
}

/** An event to publish, with what makes it itself: the same key queued twice (a rerun of a batch) is one job. */
export interface KeyedWebhookEvent {
  key: string;
  event: WebhookEvent;
}

export const webhookJobName = 'webhook';

/**
 * The job id is the call's `webhook-id`, the same on every retry and on a replay from the dashboard: derived from the
 * endpoint and the event's key, so that an event queued again (a delivery batch's rerun writing a call's outcomes a
 * second time) is the same job while BullMQ keeps it. `msg_` as the specification's examples write ids.
 */
export function webhookJobId(endpointId: string, eventKey: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}\n${eventKey}`).digest('base64url').slice(0, 32)}`;
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

/** One Redis round trip for all of them, whatever their number. */
export async function enqueueWebhookJobs(deps: Pick<Deps, 'queues'>, jobs: Array<WebhookJobData & { key: string }>) {
  if (jobs.length === 0) return;
  await deps.queues.webhook.addBulk(
    jobs.map(({ key, ...data }) => ({
      name: webhookJobName,
      data,
      opts: { ...webhookJobOptions, jobId: webhookJobId(data.endpointId, key) },
    })),
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
  backoffStrategy: (attemptsMade, config) => webhookRetryDelay(attemptsMade, config.webhooks.retryBaseMs),
};
