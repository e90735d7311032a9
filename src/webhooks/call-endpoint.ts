import { Webhook } from 'standardwebhooks';
import type { QueuedWebhookEvent } from '../queues/webhook.ts';
import type { WebhookCallResult } from '../metrics/webhook-metrics.ts';
import { webhookUrlProblem } from './webhook-url.ts';
import { postWebhook, type WebhookAgents, type WebhookAnswer } from './post-webhook.ts';

/** How many of one job's events are called at once; the worker's job concurrency multiplies it. */
const callsPerJob = 8;

export interface EndpointCall {
  queued: QueuedWebhookEvent;
  answer: WebhookAnswer;
  result: WebhookCallResult;
}

export interface CallTarget {
  url: string;
  secret: string;
  allowPrivate: boolean;
  agents: WebhookAgents;
}

const resultOf = (status: number | null): WebhookCallResult =>
  status !== null && status >= 200 && status < 300 ? 'delivered' : status === 410 ? 'gone' : 'failed';

/**
 * One event POSTed, signed per the Standard Webhooks specification under its webhook-id. The URL is checked again at
 * each call (the agents check each connection's addresses as it is made).
 */
async function callOnce(target: CallTarget, queued: QueuedWebhookEvent): Promise<WebhookAnswer> {
  const problem = webhookUrlProblem(target.url, target.allowPrivate);
  if (problem) return { status: null, failure: 'refused', durationMs: 0 };
  const body = JSON.stringify(queued.event);
  const sentAt = new Date();
  const headers = {
    'webhook-id': queued.webhookId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(target.secret).sign(queued.webhookId, sentAt, body),
  };
  return postWebhook(target.agents, { url: target.url, headers, body });
}

/**
 * Calls each event once, callsPerJob at a time, reporting each call as it ends; after a 410 no further event is
 * called (the endpoint is gone), and those not called are not in the answer.
 */
export async function callEach(
  target: CallTarget,
  events: QueuedWebhookEvent[],
  onCall: (call: EndpointCall) => void,
): Promise<EndpointCall[]> {
  const calls: EndpointCall[] = [];
  let next = 0;
  let gone = false;
  const callInTurn = async () => {
    while (next < events.length && !gone) {
      const queued = events[next++]!;
      const answer = await callOnce(target, queued);
      const call = { queued, answer, result: resultOf(answer.status) };
      calls.push(call);
      gone ||= call.result === 'gone';
      onCall(call);
    }
  };
  await Promise.all(Array.from({ length: Math.min(callsPerJob, events.length) }, callInTurn));
  return calls;
}
