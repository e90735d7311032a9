import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import type { WebhookAttemptView } from '../schemas/webhook.ts';
import { notFound } from '../errors.ts';
import { redisKeys } from '../infra/redis-keys.ts';
import { countWebhookCalls, type WebhookCallResult } from '../metrics/webhook-metrics.ts';

export interface WebhookAttempt extends Omit<WebhookAttemptView, 'at'> {
  endpointId: string;
  at: Date;
}

/** How long the webhook worker keeps its calls' records before writing them, and the most it keeps at once. */
const attemptLogFlushMs = 1000;
const maxKeptAttempts = 1000;
/**
 * Attempts are for looking into a failing endpoint, not an archive: an endpoint keeps its last 100 (the most the API
 * lists), for three days after its last call.
 */
const attemptsPerEndpoint = 100;
const attemptRetentionSeconds = 3 * 24 * 3600;

type AttemptDeps = Pick<Deps, 'redis' | 'config'>;
type AttemptLogDeps = AttemptDeps & Pick<Deps, 'log'>;

/** Each endpoint's attempts pushed onto its list in call order (so the newest is first), trimmed and kept 3 days. */
async function appendAttempts(deps: AttemptDeps, attempts: WebhookAttempt[]): Promise<void> {
  const byEndpoint = Map.groupBy(attempts, (attempt) => attempt.endpointId);
  await Promise.all(
    [...byEndpoint].map(([endpointId, own]) => {
      const key = redisKeys.webhookAttempts(deps.config.queuePrefix, endpointId);
      const entries = own.map(({ endpointId: _endpoint, at, ...view }) =>
        JSON.stringify({ ...view, at: at.toISOString() } satisfies WebhookAttemptView),
      );
      return deps.redis
        .multi()
        .lpush(key, ...entries)
        .ltrim(key, 0, attemptsPerEndpoint - 1)
        .expire(key, attemptRetentionSeconds)
        .exec();
    }),
  );
}

/**
 * The webhook worker's records of its calls: each attempt on its endpoint's list in Redis, and its count in the
 * metrics. They are kept in memory and written once a second (or at maxKeptAttempts) and when the worker closes, so
 * that a burst of events costs a few Redis round trips a second, not one per call, no call waits for its record, and
 * the database that a send's history is written to takes no write for them. A worker killed meanwhile loses the
 * records of its last second of calls, never an event: the call's job is what makes the event at least once. A write
 * that fails is logged and its records dropped: they are a diagnosis, and the next calls are recorded anyway.
 */
export class AttemptLog {
  private readonly deps: AttemptLogDeps;
  private kept: Array<{ attempt: WebhookAttempt; result: WebhookCallResult }> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(deps: AttemptLogDeps) {
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
    const [appended, counted] = await Promise.allSettled([
      appendAttempts(
        this.deps,
        records.map(({ attempt }) => attempt),
      ),
      countWebhookCalls(
        this.deps,
        records.map(({ result }) => result),
      ),
    ]);
    for (const outcome of [appended, counted])
      if (outcome.status === 'rejected')
        this.deps.log.warn({ err: outcome.reason, attempts: records.length }, 'could not record webhook attempts');
  }
}

/** The endpoint's most recent attempts, newest first (at most 100); another project's endpoint is a 404. */
export async function recentAttempts(
  deps: AttemptDeps & { models: Pick<Models, 'WebhookEndpoint'> },
  projectId: string,
  endpointId: string,
  limit: number,
): Promise<WebhookAttemptView[]> {
  if (!(await deps.models.WebhookEndpoint.exists({ _id: endpointId, projectId })))
    throw notFound(`No webhook endpoint "${endpointId}" in this project.`);
  const key = redisKeys.webhookAttempts(deps.config.queuePrefix, endpointId);
  const entries = await deps.redis.lrange(key, 0, limit - 1);
  return entries.map((entry) => JSON.parse(entry) as WebhookAttemptView);
}
