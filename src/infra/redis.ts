import { Redis } from 'ioredis';

/**
 * Two kinds of connection: the ingress fails fast while Redis is away (nothing is accepted that is not durable),
 * while BullMQ workers must wait and reconnect forever, as BullMQ requires (maxRetriesPerRequest: null).
 */
export function createFailFastRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

export function createBlockingRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}
