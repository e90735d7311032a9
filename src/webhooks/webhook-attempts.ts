import type { Models } from '../models/index.ts';
import type { WebhookAttemptView } from '../schemas/webhook.ts';
import { notFound } from '../errors.ts';

export interface WebhookAttempt {
  endpointId: string;
  webhookId: string;
  type: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
}

export async function recordAttempt(models: Pick<Models, 'WebhookAttempt'>, attempt: WebhookAttempt): Promise<void> {
  await models.WebhookAttempt.create(attempt);
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
