/** When a refused request is tried again: 429 and 503 mean nothing was accepted, so any request may be. */
export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** The wait before the first retry when the answer names none (doubled each time). */
  backoffMs: number;
  /** A longer Retry-After is not waited for: the answer is returned (and thrown as its error). */
  maxWaitMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, backoffMs: 500, maxWaitMs: 60_000 };

const retriedStatuses = new Set([429, 503]);
const idempotentMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3), in milliseconds from now; undefined when absent. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A lost connection leaves unknown whether the server acted, so only a request that cannot act twice is sent again:
 * an idempotent method, or one carrying an Idempotency-Key, which the server answers as the first time.
 */
function safeToResend(request: Request): boolean {
  return idempotentMethods.has(request.method) || request.headers.has('idempotency-key');
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** A fetch that sends a request again after a 429 or 503 (waiting its Retry-After) or, when safe, a lost connection. */
export function retryingFetch(
  policy: RetryPolicy,
  send: typeof fetch = fetch,
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const backoff = policy.backoffMs * 2 ** attempt;
      const last = attempt >= policy.retries;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted || !safeToResend(request)) throw error;
        await pause(backoff, request.signal);
        continue;
      }
      if (last || !retriedStatuses.has(response.status)) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
      if (wait > policy.maxWaitMs) return response;
      await response.body?.cancel();
      await pause(wait, request.signal);
    }
  };
}
