import { UnrecoverableError, type Job } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import type { Deps } from '../deps.ts';
import type { WebhookJobData } from '../queues/webhook.ts';
import { webhookUrlProblem } from './webhook-url.ts';
import { postWebhook, webhookAgents, type WebhookAnswer } from './post-webhook.ts';
import { AttemptLog } from './webhook-attempts.ts';
import { disableEndpoint, noteFailure, noteSuccess } from './endpoint-state.ts';
import { EndpointCache } from './endpoint-cache.ts';

type WebhookDeps = Pick<Deps, 'models' | 'config' | 'redis' | 'log'>;

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * One call of one event to one endpoint, signed per the Standard Webhooks specification with the job id as its
 * webhook-id. Anything but a 2xx fails the attempt, retried by the queue's backoff until the event is older than the
 * retry window; a 410 disables the endpoint at once. An endpoint deleted, disabled, or no longer subscribed to the
 * event's type is not called (within the EndpointCache's second). The URL is checked again at each call, and each
 * connection's addresses as it is made.
 */
export function webhookProcessor(deps: WebhookDeps) {
  const { models, config } = deps;
  const { allowPrivate, retryWindowMs } = config.webhooks;
  const agents = webhookAgents(allowPrivate);
  const endpoints = new EndpointCache(models, config.credentialsKey);
  const attempts = new AttemptLog(deps);

  async function call(job: Job<WebhookJobData>, url: string, secret: string): Promise<WebhookAnswer> {
    const problem = webhookUrlProblem(url, allowPrivate);
    if (problem) return { status: null, error: `the URL ${problem}`, durationMs: 0 };
    const body = JSON.stringify(job.data.event);
    const sentAt = new Date();
    const signature = new Webhook(secret).sign(job.id!, sentAt, body);
    const headers = {
      'webhook-id': job.id!,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    };
    return postWebhook(agents, { url, headers, body });
  }

  const deliver = async (job: Job<WebhookJobData>): Promise<string> => {
    const { projectId, endpointId, event } = job.data;
    const endpoint = await endpoints.read(projectId, endpointId);
    if (!endpoint?.enabled || !endpoint.events.has(event.type)) return 'not sent: endpoint gone or disabled';
    const answer = await call(job, endpoint.url, endpoint.secret);
    const result = isSuccess(answer.status) ? 'delivered' : answer.status === 410 ? 'gone' : 'failed';
    attempts.record({ endpointId, webhookId: job.id!, type: event.type, ...answer, at: new Date() }, result);
    // Each change to the endpoint's state is forgotten once written, so that the next call acts on it.
    if (result === 'delivered') {
      if (endpoint.failingSince) {
        await noteSuccess(models, endpointId);
        endpoints.forget(projectId, endpointId);
      }
      return `delivered: ${answer.status}`;
    }
    if (result === 'gone') {
      await disableEndpoint(models, endpointId, 'the endpoint answered 410 Gone');
      endpoints.forget(projectId, endpointId);
      return 'not delivered: 410 Gone, endpoint disabled';
    }
    await noteFailure(models, endpointId, endpoint.failingSince, retryWindowMs);
    endpoints.forget(projectId, endpointId);
    const failure = answer.status === null ? answer.error : `the endpoint answered ${answer.status}`;
    if (Date.now() - job.timestamp >= retryWindowMs) throw new UnrecoverableError(`${failure}; retries are over`);
    throw new Error(failure ?? 'the call failed');
  };
  // The kept-alive connections to the receivers are closed with the worker, so that the process can end; the calls'
  // records are written before the process ends.
  const close = async () => {
    agents.https.destroy();
    agents.http.destroy();
    await attempts.flush();
  };
  return { process: deliver, close };
}
