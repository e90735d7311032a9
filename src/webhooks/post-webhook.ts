import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connectToPublicAddressesOnly } from '../net/public-address.ts';

/** How long a receiver has to answer a call (CONTRACTS §17). */
export const webhookTimeoutMs = 10_000;

export interface WebhookAnswer {
  /** The receiver's status code; null when none came (the error says why). */
  status: number | null;
  error: string | null;
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

/** One POST, ended after the timeout; the answer's body is read and dropped, so the connection can be reused. */
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
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? null, error: null, durationMs: elapsed() }));
        response.on('error', (error) => resolve({ status: null, error: error.message, durationMs: elapsed() }));
      },
    );
    request.on('error', (error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      const message = timedOut ? `no answer within ${webhookTimeoutMs / 1000} s` : error.message;
      resolve({ status: null, error: message, durationMs: elapsed() });
    });
    request.end(call.body);
  });
}
