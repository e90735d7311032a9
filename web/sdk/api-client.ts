import { sdkError } from './sdk-error.ts';

/** Answers worth waiting out: the plan's rate limit and a service briefly without Redis or MongoDB. */
const retryStatuses = new Set([429, 503]);
const maxAttempts = 8;
const backoffBaseMs = 250;
const maxBackoffMs = 30_000;

export interface ApiCall {
  method: 'GET' | 'PUT' | 'PATCH' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves at once when online, else at the browser's next `online` event. */
function online(): Promise<void> {
  if (navigator.onLine) return Promise.resolve();
  return new Promise((resolve) => addEventListener('online', () => resolve(), { once: true }));
}

/** Where a body holds NaN or an infinity, which JSON would send as null: a tag's null deletes it. */
function nonFinitePath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = nonFinitePath(inner, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The body as JSON, refused as the service would refuse it (CONTRACTS §4, §5) where JSON would change a value. */
function jsonBody(body: unknown): string {
  const path = nonFinitePath(body);
  if (path === undefined) return JSON.stringify(body);
  const details = [{ path, message: 'must be a finite number' }];
  throw sdkError(400, { error: { code: 'invalid_request', message: `${path} must be a finite number.`, details } });
}

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * The SDK's calls to the ingress, one at a time in the order they were made: a setUserId made before a trackEvent
 * reaches the service first. Offline, calls wait for the connection; 429 and 503 are retried with exponential
 * backoff (at least Retry-After); network failures are retried the same way. Any other answer settles the call.
 */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly clientKey: string;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(baseUrl: string, clientKey: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.clientKey = clientKey;
  }

  call<T>(call: ApiCall): Promise<T> {
    const result = this.tail.then(() => this.send<T>(call));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * For the page's last moments: sent now, beside the queue, with keepalive so it outlives the page. A call the
   * browser will not send so (over its 64 KB keepalive budget, or no network) goes through the queue instead: it may
   * then reach the service twice, so it must carry an Idempotency-Key (trackEvent's does).
   */
  async sendNow(call: ApiCall): Promise<void> {
    const init = { ...this.init(call), keepalive: true };
    const response = await fetch(this.baseUrl + call.path, init).catch(() => undefined);
    if (response === undefined) return void (await this.call(call));
    if (!response.ok) throw sdkError(response.status, await response.json().catch(() => null));
  }

  private init(call: ApiCall): RequestInit {
    const headers: Record<string, string> = { ...call.headers, authorization: `Bearer ${this.clientKey}` };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    return { method: call.method, headers, body: call.body === undefined ? undefined : jsonBody(call.body) };
  }

  private async send<T>(call: ApiCall): Promise<T> {
    const init = this.init(call);
    for (let attempt = 1; ; attempt++) {
      await online();
      let response: Response;
      try {
        response = await fetch(this.baseUrl + call.path, init);
      } catch (error) {
        // Offline now: wait for the connection without spending an attempt. Otherwise the network failed.
        if (!navigator.onLine) continue;
        if (attempt >= maxAttempts) throw error;
        await wait(backoffMs(attempt, 0));
        continue;
      }
      const body: unknown = await response.json().catch(() => null);
      if (response.ok) return (body as { data: T }).data;
      if (!retryStatuses.has(response.status) || attempt >= maxAttempts) throw sdkError(response.status, body);
      await wait(backoffMs(attempt, retryAfterMs(response)));
    }
  }
}

function backoffMs(attempt: number, retryAfter: number): number {
  return Math.max(retryAfter, Math.min(maxBackoffMs, backoffBaseMs * 2 ** (attempt - 1)));
}
