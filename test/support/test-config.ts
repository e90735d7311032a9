import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { Config } from '../../src/config.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';

/** A configuration of its own for each test file: a fresh database and Redis key prefix on the shared servers. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const id = randomBytes(4).toString('hex');
  return {
    host: '127.0.0.1',
    port: 0,
    redisUrl: inject('redisUrl'),
    mongoUrl: withDatabase(inject('mongoUrl'), `t_${id}`),
    pushGateway: 'sandbox',
    sandboxHost: '127.0.0.1',
    sandboxPort: 0,
    credentialsKey: randomBytes(32),
    vapidSubject: 'mailto:tests@example.com',
    adminToken: undefined,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    queuePrefix: `t${id}`,
    tagUpdateTimeoutMs: 10_000,
    ingressShutdownGraceMs: 10_000,
    jobRetention: { completedHours: 24, failedDays: 14 },
    webhooks: { allowPrivate: true, retryBaseMs: 50, retryWindowMs: 24 * 3600 * 1000, slotLeaseMs: 60_000 },
    renderTimeoutMs: 1000,
    renderThreads: 2,
    journeyClaimLeaseMs: 60_000,
    ...overrides,
  };
}
