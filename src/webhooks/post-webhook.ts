import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connectToPublicAddressesOnly } from '../net/public-address.ts';
import type { WebhookCallFailure } from '../schemas/webhook.ts';

/** How long a receiver has to answer a call, and the most of its answer's body read (CONTRACTS §17). */
export const webhookTimeoutMs = 10_000;
export const maxAnswerBytes = 64 * 1024;

export interface WebhookAnswer {
  /** The receiver's status code; null when none came (`failure` says how the call ended). */
  status: number | null;
  failure: WebhookCallFailure | null;
  durationMs: number;
}

export interface WebhookCall {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Agents of one process: without allowPrivate they connect only to public addresses, each DNS answer checked. */
export function webhookAgents(allowPrivate: boolean) {
  const https = new HttpsAgent({ keepAlive: true, maxSockets: 16 });
  if (!allowPrivate) connectToPublicAddressesOnly(https);
  return { https, http: new HttpAgent({ keepAlive: true, maxSockets: 16 }) };
}

export type WebhookAgents = ReturnType<typeof webhookAgents>;

/**
 * How a call that got no status ended, coarsely: the network error's text (a closed port's ECONNREFUSED, a plain
 * service's "wrong version number") would make the attempts log a scanner of whatever the URL reaches.
 */
function failureOf(error: Error & { code?: string }): WebhookCallFailure {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timed_out';
  return /SSL|TLS|CERT|EPROTO|SELF_SIGNED|HOSTNAME|ALTNAME/i.test(error.code ?? '') ? 'tls_failed' : 'refused';
}

/**
 * One POST, ended after the timeout. Up to maxAnswerBytes of the answer's body is read and dropped, so that a
 * connection can be reused; a longer body ends the connection instead of being read whole.
 */
export function postWebhook(agents: WebhookAgents, call: WebhookCall): Promise<WebhookAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const plain = call.url.startsWith('http:');
  const send = plain ? httpRequest : httpsRequest;
  return new Promise((resolve) => {
    const request = send(
      call.url,
      {
        method: 'POST',
        agent: plain ? agents.http : agents.https,
        headers: { ...call.headers, 'content-type': 'application/json', 'user-agent': 'pushengine-webhooks' },
        signal: AbortSignal.timeout(webhookTimeoutMs),
      },
      (response) => {
        const answered = { status: response.statusCode ?? null, failure: null };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= maxAnswerBytes) return;
          response.destroy();
          resolve({ ...answered, durationMs: elapsed() });
        });
        response.on('end', () => resolve({ ...answered, durationMs: elapsed() }));
        response.on('error', () => resolve({ ...answered, durationMs: elapsed() }));
      },
    );
    request.on('error', (error) => resolve({ status: null, failure: failureOf(error), durationMs: elapsed() }));
    request.end(call.body);
  });
}
