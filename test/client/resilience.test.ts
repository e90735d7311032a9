import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createPushClient } from '../../clients/node/src/index.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';
import { registerDevices, useDeliveryHarness, waitUntilCompleted } from '../support/delivery-harness.ts';

const {
  harness,
  projects: { team, starter },
} = useDeliveryHarness({
  projects: { team: 'team', starter: 'starter' },
  queues: ['send', 'deliver', 'event-ingest'],
});

type Project = typeof team;

/** The client of a project, its requests and their answers' statuses (or the error of a lost one) recorded. */
function clientOf(project: Project, baseUrl = harness.ingress.baseUrl) {
  const attempts: Array<{ at: number; status: number | string; key: string | null }> = [];
  const push = createPushClient({
    baseUrl,
    apiKey: project.apiKey,
    clientKey: project.clientKey,
    projectId: project.projectId,
    fetch: async (input, init) => {
      const key = (input instanceof Request ? input.headers : new Headers(init?.headers)).get('idempotency-key');
      try {
        const response = await fetch(input, init);
        attempts.push({ at: Date.now(), status: response.status, key });
        return response;
      } catch (error) {
        attempts.push({ at: Date.now(), status: String((error as Error).cause ?? error), key });
        throw error;
      }
    },
  });
  return { push, attempts };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A TCP proxy to the ingress that, on its first connection, passes the request on and drops the answer. */
async function startDroppingProxy(ingressPort: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  let drops = 1;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(ingressPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    if (drops-- > 0) upstream.once('data', () => client.resetAndDestroy());
    else upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy is not listening on TCP');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    // The client keeps its connection alive: closing waits for none.
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the typed client over the network', () => {
  it("pages the delivery log, notifications, a device's history and events to their end", async () => {
    const { push } = clientOf(team);
    const devices = Array.from({ length: 90 }, (_, index) => ({
      id: `pager-${String(index).padStart(3, '0')}`,
      platform: 'android' as const,
      token: `pager-token-${index}`,
      userId: 'pager',
    }));
    await registerDevices(harness.ingress, team, devices);
    const ids: string[] = [];
    for (let send = 0; send < 3; send++) {
      const { id } = await push.sendNotification({
        body: { targetType: 'userId', targetIds: ['pager'], body: `${send}` },
      });
      await waitUntilCompleted(harness.ingress, team, id);
      ids.push(id);
    }
    const logged = await collect(push.allDeliveries({ path: { notificationId: ids[0]! }, query: { limit: 40 } }));
    expect(logged.map((entry) => entry.deviceId)).toEqual(devices.map((device) => device.id));
    const notifications = await collect(push.allNotifications({ query: { limit: 2 } }));
    expect(notifications.map((notification) => notification.id)).toEqual(ids.toReversed());
    const history = await collect(
      push.allNotificationHistory({ path: { deviceId: 'pager-007' }, query: { limit: 1 } }),
    );
    expect(history.map((entry) => entry.notification.id)).toEqual(ids.toReversed());
    const events = Array.from({ length: 5 }, (_, index) => ({
      type: 'viewed',
      subjectType: 'device',
      subjectId: 'pager-000',
      data: { index },
    }));
    for (const event of events) await push.trackEvents({ body: { events: [event] } });
    const stored = async () => collect(push.allEvents({ query: { deviceId: 'pager-000', type: 'viewed', limit: 2 } }));
    await expect.poll(async () => (await stored()).length, { timeout: 15_000 }).toBe(5);
    expect((await stored()).map((event) => event.data)).toEqual(events.map((event) => event.data).toReversed());
  });

  it('waits out the Retry-After of a 429 and answers the call', async () => {
    const { push, attempts } = clientOf(starter);
    // The plan's 100 calls a minute, all made 59 s ago by Redis's clock: the window frees up a second from now.
    const [seconds, micros] = await harness.ingress.context.redis.time();
    const madeAt = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - 59_000;
    const key = redisKeys.rateLimit(harness.ingress.context.config.queuePrefix, starter.projectId);
    await harness.ingress.context.redis.zadd(
      key,
      ...Array.from({ length: 100 }, (_, index) => [madeAt, `seed-${index}`]).flat(),
    );
    const project = await push.getProject();
    expect(project.id).toBe(starter.projectId);
    expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it("uses the caller's Idempotency-Key when given: the same key twice is one send", async () => {
    await registerDevices(harness.ingress, team, [{ id: 'keyed', platform: 'android', token: 'keyed-token' }]);
    const { push, attempts } = clientOf(team);
    const send = () =>
      push.sendNotification({
        body: { targetType: 'device', targetIds: ['keyed'], body: 'keyed' },
        idempotencyKey: 'order-42-shipped',
      });
    const first = await send();
    expect(await send()).toEqual(first);
    expect(attempts.map((attempt) => attempt.key)).toEqual(['order-42-shipped', 'order-42-shipped']);
    await waitUntilCompleted(harness.ingress, team, first.id);
    expect(harness.sandbox.deliveries('keyed-token')).toHaveLength(1);
  });

  it('sends again after a lost connection, with the same Idempotency-Key, and the device gets one push', async () => {
    const port = Number(new URL(harness.ingress.baseUrl).port);
    const proxy = await startDroppingProxy(port);
    onTestFinished(() => proxy.close());
    await registerDevices(harness.ingress, team, [{ id: 'dropped', platform: 'ios', token: 'dropped-token' }]);
    const { push, attempts } = clientOf(team, proxy.baseUrl);
    const { id } = await push.sendNotification({
      body: { targetType: 'device', targetIds: ['dropped'], title: 'Once', body: 'only once' },
    });
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.status).not.toBe(200);
    expect(attempts[1]!.status).toBe(200);
    expect(attempts[1]!.key).toBe(attempts[0]!.key);
    await waitUntilCompleted(harness.ingress, team, id);
    expect(harness.sandbox.deliveries('dropped-token')).toHaveLength(1);
    const sent = await collect(push.allNotifications({}));
    expect(sent.filter((notification) => notification.body === 'only once')).toHaveLength(1);
  });
});
