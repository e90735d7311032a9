import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { WebhookAttemptView } from '../schemas/webhook.ts';
import { notFound } from '../errors.ts';
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

/** How long the webhook worker keeps its calls' records before writing them, and the most it keeps at once. */
const attemptLogFlushMs = 1000;
const maxKeptAttempts = 1000;

/**
 * The webhook worker's records of its calls: each attempt, and its count in the metrics. They are kept in memory and
 * written once a second (or at maxKeptAttempts) in one insertMany and one Redis round trip, and when the worker
 * closes, so that a burst of events costs the database a write a second, not one per call, and no call waits for its
 * record. A worker killed meanwhile loses the records of its last second of calls, never an event: the call's job is
 * what makes the event at least once. A write that fails is logged and its records dropped: they are a diagnosis, and
 * the next calls are recorded anyway.
 */
export class AttemptLog {
  private readonly deps: Pick<Deps, 'models' | 'redis' | 'config' | 'log'>;
  private kept: Array<{ attempt: WebhookAttempt; result: WebhookCallResult }> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(deps: Pick<Deps, 'models' | 'redis' | 'config' | 'log'>) {
    this.deps = deps;
  }

  record(attempt: WebhookAttempt, result: WebhookCallResult): void {
    this.kept.push({ attempt, result });
    if (this.kept.length >= maxKeptAttempts) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), attemptLogFlushMs);
  }

  /** Writes what is kept, after any write still out; resolves when both are done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const records = this.kept;
    this.kept = [];
    this.writing = this.writing
      .then(() => this.write(records))
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not record webhook attempts'));
    return this.writing;
  }

  private async write(records: Array<{ attempt: WebhookAttempt; result: WebhookCallResult }>): Promise<void> {
    if (records.length === 0) return;
    const [inserted, counted] = await Promise.allSettled([
      this.deps.models.WebhookAttempt.collection.insertMany(
        records.map(({ attempt }) => attempt),
        { ordered: false },
      ),
      countWebhookCalls(
        this.deps,
        records.map(({ result }) => result),
      ),
    ]);
    for (const outcome of [inserted, counted])
      if (outcome.status === 'rejected')
        this.deps.log.warn({ err: outcome.reason, attempts: records.length }, 'could not record webhook attempts');
  }
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
