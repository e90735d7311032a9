import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { provideServices } from '../../local/services/provide-services.ts';
import { connectionRefused } from '../support/connection-refused.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import { connectMongo } from '../../src/infra/mongo.ts';

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('provideServices without Docker or env URLs', () => {
  it('starts a local Redis and SecantusDB, and stop() leaves nothing behind', async () => {
    const savedEnv = { REDIS_URL: process.env.REDIS_URL, MONGODB_URL: process.env.MONGODB_URL };
    delete process.env.REDIS_URL;
    delete process.env.MONGODB_URL;
    const stateDir = await mkdtemp(join(tmpdir(), 'pushengine-services-test-'));
    const logLines: string[] = [];
    try {
      const services = await provideServices({ stateDir, log: (line) => logLines.push(line) });
      try {
        expect(services.path).toMatch(
          /redis: local redis-server .* on 127\.0\.0\.1:\d+; mongodb: local SecantusDB 0\.7\.0b3 on 127\.0\.0\.1:\d+/,
        );
        expect(services.mongoUrl).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?retryWrites=false$/);
        expect(services.pids).toHaveLength(2);

        const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
        try {
          await redis.connect();
          expect(await redis.ping()).toBe('PONG');
        } finally {
          redis.disconnect();
        }

        const connection = await connectMongo(withDatabase(services.mongoUrl, 'svc_test'));
        try {
          const items = connection.collection('items');
          await items.insertOne({ name: 'hello' });
          expect((await items.findOne({ name: 'hello' }))?.name).toBe('hello');
        } finally {
          await connection.close();
        }
      } finally {
        await services.stop();
      }

      expect(await connectionRefused(portOf(services.redisUrl))).toBe(true);
      expect(await connectionRefused(portOf(services.mongoUrl))).toBe(true);
      for (const pid of services.pids) expect(isRunning(pid)).toBe(false);
      expect(await readdir(stateDir)).toEqual([]);
      expect(logLines.join('\n')).toMatch(/redis: no Docker engine/);
    } finally {
      Object.assign(
        process.env,
        Object.fromEntries(Object.entries(savedEnv).filter(([, value]) => value !== undefined)),
      );
      await rm(stateDir, { recursive: true, force: true });
    }
  }, 120_000);
});
