import { randomUUID } from 'node:crypto';
import type { RedisClient } from './redis.ts';

export class LockTimeoutError extends Error {
  constructor(key: string) {
    super(`could not lock ${key} in time`);
    this.name = 'LockTimeoutError';
  }
}

const releaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface LockOptions {
  /** How long the lock protects a holder that died; longer than any critical section. */
  leaseMs?: number;
  /**
   * How long to keep trying before giving up with LockTimeoutError. By default long enough for a queue of writers
   * behind one lock (a project's bounded resources created at once) each to count and write on a loaded store.
   */
  waitMs?: number;
}

/**
 * Runs fn while holding a Redis lock on key: mutual exclusion across processes, for work of several steps over
 * Redis and MongoDB that no single atomic update covers: the flush of gathered counts (move the pending hash aside,
 * insert it into MongoDB, delete it), and a project's bounded resources (count them, then write one), where two
 * writers at once would each see room for one more. The lease frees the lock of a holder that died, so it must be
 * longer than any critical section.
 */
export async function withRedisLock<T>(
  redis: RedisClient,
  key: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const leaseMs = options.leaseMs ?? 10_000;
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  const token = randomUUID();
  let delayMs = 2;
  while ((await redis.set(key, token, 'PX', leaseMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline) throw new LockTimeoutError(key);
    await new Promise((resolve) => setTimeout(resolve, delayMs + Math.random() * delayMs));
    delayMs = Math.min(delayMs * 2, 50);
  }
  try {
    return await fn();
  } finally {
    await redis.eval(releaseScript, 1, key, token).catch(() => undefined);
  }
}
