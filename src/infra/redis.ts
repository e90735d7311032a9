import { Redis } from 'ioredis';

/**
 * Two kinds of connection: the ingress fails fast while Redis is away (nothing is accepted that is not durable),
 * while BullMQ workers must wait and reconnect forever, as BullMQ requires (maxRetriesPerRequest: null).
 */
/**
 * A Redis that is connected but does not answer (stopped, swapping, stuck on a slow disk) would hold every request
 * forever; past this a command fails and the request is a 503. Redis answers in well under a millisecond, and its
 * slowest routine pause, an append-only-file fsync, is about a second or two.
 */
export const redisCommandTimeoutMs = 5000;

export function createFailFastRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: redisCommandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

export function createBlockingRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** A fail-fast connection refuses commands until it is ready, so start-up waits for that once. */
export async function waitForRedis(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis did not answer within ${timeoutMs} ms at ${redis.options.host}:${redis.options.port}`));
    }, timeoutMs);
    function onReady() {
      clearTimeout(timer);
      resolve();
    }
    redis.once('ready', onReady);
  });
}
