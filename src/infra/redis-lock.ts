import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

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
  /** How long to keep trying before giving up with LockTimeoutError. */
  waitMs?: number;
}

/**
 * Runs fn while holding a Redis lock on key. Needed because FerretDB 1.x applies an update by reading the
 * document and writing it back outside a transaction (FerretDB issue #3040): two concurrent updates of one
 * document, even $inc or a filter on a revision number, can silently lose one of them. Real MongoDB does not
 * need this, and it costs one SET and one EVAL there.
 */
export async function withRedisLock<T>(redis: Redis, key: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const leaseMs = options.leaseMs ?? 10_000;
  const deadline = Date.now() + (options.waitMs ?? 5_000);
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

/** Holds the locks on every key at once, taken in sorted order so that two callers never wait on each other in a cycle. */
export function withRedisLocks<T>(redis: Redis, keys: string[], fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const lockFrom = (position: number): Promise<T> =>
    position === sorted.length ? fn() : withRedisLock(redis, sorted[position]!, () => lockFrom(position + 1), options);
  return lockFrom(0);
}
