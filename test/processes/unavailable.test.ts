import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalRedis } from '../../local/services/redis-server.ts';
import { startLocalSecantusDb } from '../../local/services/secantusdb.ts';
import { withDatabase } from '../../src/infra/mongo-url.ts';
import type { StartedService } from '../../local/services/started-service.ts';
import { startIngress, type TestIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';
import { eventually, waitFor } from '../support/eventually.ts';
import { redisCommandTimeoutMs } from '../../src/infra/redis.ts';
import { isUnavailableError } from '../../src/infra/unavailable.ts';
import { readinessTimeoutMs } from '../../src/routes/health.ts';
import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
} from 'mongodb';
import { connectMongo } from '../../src/infra/mongo.ts';
import { restartable } from '../support/fault-harness.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

async function privateServer(start: typeof startLocalRedis): Promise<StartedService> {
  const stateDir = await mkdtemp(join(tmpdir(), 'unavailable-'));
  const service = await start({ stateDir, log: () => undefined, persistent: false });
  cleanups.push(() => service.stop());
  return service;
}

async function ingressOn(overrides: Parameters<typeof testConfig>[0]): Promise<TestIngress> {
  const ingress = await startIngress(testConfig(overrides));
  cleanups.push(() => ingress.close());
  return ingress;
}

/**
 * A server connected but not answering: its processes stopped, and only once the kernel shows each stopped (a signal
 * reaches a process on a busy machine when it next runs, and a request sent before then was answered).
 */
async function freeze(service: StartedService): Promise<void> {
  for (const pid of service.pids) process.kill(pid, 'SIGSTOP');
  cleanups.push(async () => thaw(service));
  for (const pid of service.pids)
    await waitFor(
      async () => (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '')[0],
      (state) => state === 'T',
    );
}

function thaw(service: StartedService): void {
  for (const pid of service.pids) process.kill(pid, 'SIGCONT');
}

function expectUnavailable(response: { status: number; body: any }) {
  expect(response.status).toBe(503);
  expect(response.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
}

/** An ingress on a Redis of the test's own, and a project with one device registered while Redis answered. */
async function deviceOnPrivateRedis(plan: 'starter' | 'team') {
  const redis = await privateServer(startLocalRedis);
  const ingress = await ingressOn({ redisUrl: redis.url });
  const project = await ingress.createProject(plan);
  const register = (id: string) =>
    ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${id}`, {
      key: project.clientKey,
      body: { platform: 'ios', pushToken: 't' },
    });
  expect((await register('before')).status).toBe(200);
  return { redis, ingress, project, register };
}

describe('503 when a backing store is down (CONTRACTS §1)', () => {
  it('answers 503 and writes nothing while Redis is down', async () => {
    const { redis, ingress, project, register } = await deviceOnPrivateRedis('starter');

    await redis.stop();
    expectUnavailable(await register('during'));
    expectUnavailable(
      await ingress.request('GET', `/v1/projects/${project.projectId}/devices/before`, { key: project.apiKey }),
    );
    expect((await ingress.request('GET', '/readyz')).status).toBe(503);
    expect(await ingress.context.models.Device.countDocuments({ deviceId: 'during' })).toBe(0);
  });

  it('answers 503 within the command timeout, and writes nothing, while Redis is connected but does not answer', async () => {
    const { redis, ingress, register } = await deviceOnPrivateRedis('team');

    await freeze(redis);
    const startedAt = Date.now();
    expectUnavailable(await register('during'));
    expect(Date.now() - startedAt).toBeLessThan(redisCommandTimeoutMs + 2000);
    expect(await ingress.context.models.Device.countDocuments({ deviceId: 'during' })).toBe(0);
  });

  it('answers /readyz 503 within its time-out while MongoDB is connected but does not answer, and 200 once it does', async () => {
    const mongo = await privateServer(startLocalSecantusDb);
    const ingress = await ingressOn({ mongoUrl: withDatabase(mongo.url, 'frozen_test') });
    expect((await ingress.request('GET', '/readyz')).status).toBe(200);
    await freeze(mongo);
    const startedAt = Date.now();
    const frozen = await ingress.request('GET', '/readyz');
    expect(Date.now() - startedAt).toBeLessThan(readinessTimeoutMs + 1000);
    expect(frozen.status).toBe(503);
    expect(frozen.body.error.message).toBe('Not ready: redis is up, mongodb is down.');
    thaw(mongo);
    await eventually(async () => expect((await ingress.request('GET', '/readyz')).status).toBe(200));
  });

  it('fails a write larger than the socket can take at socketTimeoutMS, as unavailable, while MongoDB is connected but does not read, and writes again once it does', async () => {
    const mongo = await privateServer(startLocalSecantusDb);
    const url = new URL(withDatabase(mongo.url, 'stalled_write_test'));
    url.searchParams.set('socketTimeoutMS', '2000');
    const connection = await connectMongo(url.href);
    cleanups.push(() => connection.close());
    const things = connection.collection<{ _id: string; padding?: string }>('things');
    await things.insertOne({ _id: 'before' });
    await freeze(mongo);
    // 20 MB: far more than the socket's buffers hold, so the driver waits for the socket to drain while its idle
    // time-out passes.
    const large = Array.from({ length: 20_000 }, (_, n) => ({ _id: `large-${n}`, padding: 'x'.repeat(1000) }));
    const startedAt = Date.now();
    let giveUp: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      things.insertMany(large, { ordered: false }).then(
        () => 'inserted',
        (error: Error) => error,
      ),
      new Promise((resolve) => {
        giveUp = setTimeout(() => resolve('still waiting after 30 s'), 30_000);
      }),
    ]);
    clearTimeout(giveUp);
    expect(outcome).toBeInstanceOf(Error);
    expect(isUnavailableError(outcome as Error), String(outcome)).toBe(true);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    thaw(mongo);
    // An upsert: an attempt the server applied but answered after the time-out does not fail the next.
    await eventually(() => things.replaceOne({ _id: 'after' }, {}, { upsert: true }));
    expect(await things.countDocuments({ _id: { $in: ['before', 'after'] } })).toBe(2);
  });

  it('answers 503 and queues nothing while MongoDB is down', async () => {
    const mongo = await privateServer(startLocalSecantusDb);
    const ingress = await ingressOn({ mongoUrl: withDatabase(mongo.url, 'down_test') });
    const project = await ingress.createProject('team');
    const sdkPath = (id: string) => `/v1/sdk/projects/${project.projectId}/devices/${id}`;
    expect(
      (
        await ingress.request('PUT', sdkPath('before'), {
          key: project.clientKey,
          body: { platform: 'web', pushToken: 't' },
        })
      ).status,
    ).toBe(200);
    const queuedBefore = await ingress.context.queues.eventIngest.count();

    await mongo.stop();
    expectUnavailable(
      await ingress.request('PUT', sdkPath('during'), {
        key: project.clientKey,
        body: { platform: 'web', pushToken: 't' },
      }),
    );
    expectUnavailable(
      await ingress.request('GET', `/v1/projects/${project.projectId}/devices/before`, { key: project.apiKey }),
    );
    expect((await ingress.request('GET', '/readyz')).status).toBe(503);
    expect(await ingress.context.queues.eventIngest.count()).toBe(queuedBefore);
  });
});

describe('which errors mean a backing store is unreachable', () => {
  const lost = () => new MongoNetworkError('connection 7 to 127.0.0.1:27017 closed');

  it('a MongoDB connection lost or timed out, a pool cleared, a server not found, alone or inside a bulk write', () => {
    const cleared = new MongoNetworkError(
      'Connection pool for 127.0.0.1:27017 was cleared because another operation failed with: "connection <monitor> to 127.0.0.1:27017 closed"',
    );
    const notFound = new MongoServerSelectionError('Server selection timed out after 2000 ms', {} as never);
    const timedOut = new MongoNetworkTimeoutError('connection 3 to 127.0.0.1:27017 timed out');
    // What Node raises for a write to a socket whose server has gone, as a killed server's connection met it.
    const ended = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    for (const error of [lost(), cleared, notFound, timedOut, ended]) {
      expect(isUnavailableError(error), error.message).toBe(true);
      expect(isUnavailableError(new MongoBulkWriteError(error, {} as never)), error.message).toBe(true);
    }
  });

  it('a server that shuts down, starts or steps down, by code (of the answer or of its write concern) or by an old message', () => {
    const answers = [
      new MongoServerError({ message: 'The server is in quiesce mode and will shut down', code: 91 }),
      new MongoServerError({ message: 'interrupted at shutdown', code: 11600 }),
      new MongoServerError({ message: 'not primary', code: 10107 }),
      new MongoWriteConcernError({ writeConcernError: { code: 91, errmsg: 'shutdown in progress' } } as never),
      new MongoServerError({ message: 'node is recovering' }),
      new MongoOperationTimeoutError('Timed out during socket read (60000ms)'),
    ];
    for (const error of answers) expect(isUnavailableError(error), error.message).toBe(true);
  });

  it('every error a client meets while its server is killed, away and started again', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'unavailable-'));
    const server = await restartable(startLocalSecantusDb, stateDir);
    cleanups.push(() => server.stop());
    const connection = await connectMongo(withDatabase(server.url, 'restart_test'));
    cleanups.push(() => connection.close());
    const things = connection.collection<{ _id: string; n: number }>('things');
    await things.insertMany(Array.from({ length: 500 }, (_, n) => ({ _id: `t${n}`, n })));
    const met: Error[] = [];
    const answered = new Set<string>();
    let restarted = false;
    let stop = false;
    const commands: Record<string, () => Promise<unknown>> = {
      find: () => things.find({}, { batchSize: 100 }).toArray(),
      count: () => things.countDocuments({ n: { $gte: 0 } }),
      aggregate: () => things.aggregate([{ $match: { n: { $gte: 5 } } }, { $count: 'n' }]).toArray(),
      update: () => things.updateOne({ _id: 't1' }, { $inc: { n: 1 } }),
      findAndModify: () => things.findOneAndUpdate({ _id: 't2' }, { $inc: { n: 1 } }),
      insertMany: () => things.insertMany([{ _id: `r${Math.random()}`, n: 0 }], { ordered: false }),
      bulkWrite: () => things.bulkWrite([{ updateOne: { filter: { _id: 't3' }, update: { $inc: { n: 1 } } } }]),
    };
    const running = Object.entries(commands).map(async ([name, command]) => {
      while (!stop)
        await command().then(
          () => restarted && answered.add(name),
          (error: Error) => met.push(error),
        );
    });
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await server.start();
    restarted = true;
    await eventually(() => expect(answered.size).toBe(Object.keys(commands).length), 30_000);
    stop = true;
    await Promise.all(running);
    expect(met.length).toBeGreaterThan(0);
    expect(met.filter((error) => !isUnavailableError(error)).map((error) => `${error.name}: ${error.message}`)).toEqual(
      [],
    );
  });

  it("not a bulk write's own failure, nor any other server error", () => {
    const duplicate = { message: 'E11000 duplicate key error', code: 11000, writeErrors: [] };
    expect(isUnavailableError(new MongoBulkWriteError(duplicate, {} as never))).toBe(false);
    expect(isUnavailableError(new MongoServerError({ message: 'unknown operator: $foo', code: 2 }))).toBe(false);
    expect(isUnavailableError(new Error('a bug'))).toBe(false);
  });
});
