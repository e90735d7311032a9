import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { WebhookAttemptView } from '../schemas/webhook.ts';
import { notFound } from '../errors.ts';
import { gatheredWrites } from '../infra/gathering.ts';
import { countWebhookCalls, type WebhookCallResult } from '../metrics/webhook-metrics.ts';

export interface WebhookAttempt {
  endpointId: string;
  webhookId: string;
  type: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
}

/** Attempts written in one insert at most. */
const maxAttemptsPerWrite = 100;

/**
 * Records each call of the webhook worker: its attempt and its count in the metrics. The attempts of calls that end
 * together (a Gathering) cost one insertMany and one Redis round trip: at a send's burst of events a write per call
 * would cost the database as much as the send's own writes. A call is recorded before its job completes.
 */
export function attemptRecorder(deps: Pick<Deps, 'models' | 'redis' | 'config'>) {
  const record = gatheredWrites(async (recorded: Array<{ attempt: WebhookAttempt; result: WebhookCallResult }>) => {
    await deps.models.WebhookAttempt.insertMany(
      recorded.map(({ attempt }) => attempt),
      { ordered: false },
    );
    await countWebhookCalls(
      deps,
      recorded.map(({ result }) => result),
    );
  }, maxAttemptsPerWrite);
  return (attempt: WebhookAttempt, result: WebhookCallResult) => record({ attempt, result });
}

export const recentAttemptsQuery = (models: Models, endpointId: string, limit: number) =>
  models.WebhookAttempt.find({ endpointId }).sort({ at: -1 }).limit(limit).lean();

/** The endpoint's most recent attempts, newest first, by the (endpointId, at) index; another project's is a 404. */
export async function recentAttempts(
  models: Models,
  projectId: string,
  endpointId: string,
  limit: number,
): Promise<WebhookAttemptView[]> {
  if (!(await models.WebhookEndpoint.exists({ _id: endpointId, projectId })))
    throw notFound(`No webhook endpoint "${endpointId}" in this project.`);
  const attempts = await recentAttemptsQuery(models, endpointId, limit);
  return attempts.map((attempt) => ({
    webhookId: attempt.webhookId,
    type: attempt.type,
    status: attempt.status ?? null,
    error: attempt.error ?? null,
    durationMs: attempt.durationMs,
    at: attempt.at.toISOString(),
  }));
}
