import { UnrecoverableError, type Job } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import type { Deps } from '../deps.ts';
import type { WebhookJobData } from '../queues/webhook.ts';
import { unseal, type Sealed } from '../credentials/cipher.ts';
import { webhookUrlProblem } from './webhook-url.ts';
import { postWebhook, webhookAgents, type WebhookAnswer } from './post-webhook.ts';
import { recordAttempt } from './webhook-attempts.ts';
import { disableEndpoint, noteFailure, noteSuccess } from './endpoint-state.ts';
import { countWebhookCall } from '../metrics/webhook-metrics.ts';

type WebhookDeps = Pick<Deps, 'models' | 'config' | 'redis'>;

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * One call of one event to one endpoint, signed per the Standard Webhooks specification with the job id as its
 * webhook-id. Anything but a 2xx fails the attempt, retried by the queue's backoff until the event is older than the
 * retry window; a 410 disables the endpoint at once. An endpoint deleted, disabled, or no longer subscribed to the
 * event's type is not called. The URL is checked again at each call, and each connection's addresses as it is made.
 */
export function webhookProcessor(deps: WebhookDeps) {
  const { models, config } = deps;
  const { allowPrivate, retryWindowMs } = config.webhooks;
  const agents = webhookAgents(allowPrivate);

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
    const endpoint = await models.WebhookEndpoint.findOne({ _id: endpointId, projectId }).lean();
    if (!endpoint?.enabled || !endpoint.events.includes(event.type)) return 'not sent: endpoint gone or disabled';
    const answer = await call(job, endpoint.url, unseal(endpoint.secret as Sealed, config.credentialsKey));
    await recordAttempt(models, { endpointId, webhookId: job.id!, type: event.type, ...answer, at: new Date() });
    const result = isSuccess(answer.status) ? 'delivered' : answer.status === 410 ? 'gone' : 'failed';
    await countWebhookCall(deps, result);
    if (result === 'delivered') {
      if (endpoint.failingSince) await noteSuccess(models, endpointId);
      return `delivered: ${answer.status}`;
    }
    if (result === 'gone') {
      await disableEndpoint(models, endpointId, 'the endpoint answered 410 Gone');
      return 'not delivered: 410 Gone, endpoint disabled';
    }
    await noteFailure(models, endpointId, endpoint.failingSince, retryWindowMs);
    const failure = answer.status === null ? answer.error : `the endpoint answered ${answer.status}`;
    if (Date.now() - job.timestamp >= retryWindowMs) throw new UnrecoverableError(`${failure}; retries are over`);
    throw new Error(failure ?? 'the call failed');
  };
  // The kept-alive connections to the receivers are closed with the worker, so that the process can end.
  const close = async () => {
    agents.https.destroy();
    agents.http.destroy();
  };
  return { process: deliver, close };
}
