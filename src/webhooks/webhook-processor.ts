import { UnrecoverableError, type Job } from 'bullmq';
import type { Deps } from '../deps.ts';
import { queueRetriesAlone, type WebhookJobData } from '../queues/webhook.ts';
import { webhookAgents } from './post-webhook.ts';
import { AttemptLog } from './webhook-attempts.ts';
import type { WebhookCallResult } from '../metrics/webhook-metrics.ts';
import { disableEndpoint, noteFailure, noteSuccess } from './endpoint-state.ts';
import { EndpointCache, type CallableEndpoint } from './endpoint-cache.ts';
import { callEach, type EndpointCall } from './call-endpoint.ts';
import { takeEndpointSlot } from './endpoint-slots.ts';
import { delayRun } from '../infra/delay-run.ts';

type WebhookDeps = Pick<Deps, 'models' | 'config' | 'redis' | 'log' | 'queues'>;
/** How long a job waits when its endpoint's slots are all held, at least (up to twice, spread so they do not meet). */
const busyEndpointDelayMs = 1000;

type CallsByResult = Map<WebhookCallResult, EndpointCall[]>;

const failureOf = ({ answer }: EndpointCall) =>
  answer.status === null ? `the call ended ${answer.failure}` : `the endpoint answered ${answer.status}`;

/**
 * A job's events called at one endpoint. Anything but a 2xx fails a call: a job of one event is retried by the
 * queue's backoff until the event is older than the retry window; a batch's failed events are queued alone for that.
 * A 410 disables the endpoint at once. An endpoint deleted, disabled, or no longer subscribed to an event's type is
 * not called (within the EndpointCache's second).
 */
export function webhookProcessor(deps: WebhookDeps) {
  const { models, config } = deps;
  const { allowPrivate, retryWindowMs } = config.webhooks;
  const agents = webhookAgents(allowPrivate);
  const endpoints = new EndpointCache(models, config.credentialsKey);
  const attempts = new AttemptLog(deps);

  /**
   * What the calls tell of the endpoint: a 410 disables it, a 2xx ends its run of failures, a failure starts or
   * continues one.
   */
  function stateWrite(endpointId: string, endpoint: CallableEndpoint, results: CallsByResult): Promise<void> | null {
    if (results.has('gone')) return disableEndpoint(models, endpointId, 'the endpoint answered 410 Gone');
    if (results.has('delivered')) return endpoint.failingSince ? noteSuccess(models, endpointId) : null;
    return results.has('failed') ? noteFailure(models, endpointId, endpoint.failingSince, retryWindowMs) : null;
  }

  /**
   * A job whose endpoint already has its share of calls in flight waits as delayed work, not in a worker slot, so
   * that one slow or hung endpoint cannot hold the calls of every other (its jobs come back within a few seconds).
   */
  const process = async (job: Job<WebhookJobData>, token?: string): Promise<string> => {
    const release = await takeEndpointSlot(deps, job.data.endpointId);
    if (!release) return delayRun(job, token, busyEndpointDelayMs + Math.random() * busyEndpointDelayMs);
    try {
      return await deliver(job);
    } finally {
      await release();
    }
  };

  const deliver = async (job: Job<WebhookJobData>): Promise<string> => {
    const { projectId, endpointId, events } = job.data;
    const endpoint = await endpoints.read(projectId, endpointId);
    const subscribed = endpoint?.enabled ? events.filter(({ event }) => endpoint.events.has(event.type)) : [];
    if (!endpoint || subscribed.length === 0) return 'not sent: endpoint gone, disabled or not subscribed';
    const target = { url: endpoint.url, secret: endpoint.secret, allowPrivate, agents };
    const calls = await callEach(target, subscribed, ({ queued, answer, result }) =>
      attempts.record(
        {
          endpointId,
          webhookId: queued.webhookId,
          type: queued.event.type,
          status: answer.status,
          error: answer.failure,
          durationMs: answer.durationMs,
          at: new Date(),
        },
        result,
      ),
    );
    const results: CallsByResult = Map.groupBy(calls, (call) => call.result);
    const write = stateWrite(endpointId, endpoint, results);
    // Forgotten once written, so that the next call acts on the state this one gave the endpoint.
    if (write) {
      await write;
      endpoints.forget(projectId, endpointId);
    }
    const delivered = results.get('delivered')?.length ?? 0;
    if (results.has('gone')) return `${delivered} delivered; 410 Gone, endpoint disabled`;
    const failed = results.get('failed') ?? [];
    if (failed.length === 0) return `${delivered} delivered`;
    const firstQueuedAt = job.data.retry?.firstQueuedAt ?? job.timestamp;
    const failure = failureOf(failed[0]!);
    if (Date.now() - firstQueuedAt >= retryWindowMs) throw new UnrecoverableError(`${failure}; retries are over`);
    if (events.length === 1) throw new Error(failure);
    await queueRetriesAlone(
      deps,
      job.data,
      failed.map((call) => call.queued),
      firstQueuedAt,
    );
    return `${delivered} delivered; ${failed.length} failed (${failure}), each queued to be retried alone`;
  };
  // The kept-alive connections to the receivers are closed with the worker, so that the process can end; the calls'
  // records are written before the process ends.
  const close = async () => {
    agents.https.destroy();
    agents.http.destroy();
    await attempts.flush();
  };
  return { process, close };
}
