import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startLocalRedisCluster, type StartedRedisCluster } from '../../local/services/redis-cluster.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import {
  registerDevices,
  sendNotification,
  startDeliveryHarness,
  waitUntilCompleted,
  type DeliveryHarness,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

/**
 * The product on a three-master Redis Cluster, REDIS_URL in its cluster form: sends (BullMQ's scripts, the delivery
 * rate, metrics), tags by userId (tag-update fates), events (counts recorded and renamed per project)
 * and the plan rate limit. Any command or script spanning two slots fails with CROSSSLOT, so each path working is
 * the proof that its keys share a hash tag; the key census at the end proves they are spread rather than piled up.
 */

let cluster: StartedRedisCluster;
let harness: DeliveryHarness;
let team: CreatedProject;
let starter: CreatedProject;

beforeAll(async () => {
  cluster = await startLocalRedisCluster({
    stateDir: resolve(import.meta.dirname, '../../.state/test/redis-cluster'),
    log: () => undefined,
    masters: 3,
  });
  harness = await startDeliveryHarness({ redisUrl: cluster.url }, ['send', 'deliver', 'tag-update', 'event-ingest']);
  team = await harness.ingress.createProject('team');
  starter = await harness.ingress.createProject('starter');
});

afterAll(async () => {
  await harness?.close();
  await cluster?.stop();
});

const request = (method: string, path: string, project: CreatedProject, body?: unknown) =>
  harness.ingress.request(method, `/v1/projects/${project.projectId}${path}`, { key: project.apiKey, body });

describe('on a Redis Cluster', () => {
  it('sends to users and to a segment, each device once, with exact stats', async () => {
    await registerDevices(harness.ingress, team, [
      { id: 'c-1', platform: 'android', token: 'cluster-fcm-1', userId: 'ada', tags: { plan: 'pro' } },
      { id: 'c-2', platform: 'ios', token: 'cluster-apns-2', userId: 'ada', tags: { plan: 'pro' } },
      { id: 'c-3', platform: 'android', token: 'cluster-fcm-3', userId: 'bo', tags: { plan: 'free' } },
      { id: 'c-4', platform: 'android', token: 'unregistered-cluster-4', userId: 'cy', tags: { plan: 'pro' } },
    ]);
    const byUser = await sendNotification(harness.ingress, team, {
      targetType: 'userId',
      targetIds: ['ada'],
      body: 'Hi {{ device.id }}',
    });
    expect((await waitUntilCompleted(harness.ingress, team, byUser)).stats).toMatchObject({
      targeted: 2,
      sent: 2,
      failed: 0,
    });

    const segment = await request('POST', '/segments', team, {
      name: 'pro',
      match: 'all',
      conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }],
    });
    expect(segment.status).toBe(200);
    const bySegment = await sendNotification(harness.ingress, team, {
      targetType: 'segment',
      targetIds: [segment.body.data.id],
      body: 'Pro news',
    });
    expect((await waitUntilCompleted(harness.ingress, team, bySegment)).stats).toMatchObject({
      targeted: 3,
      sent: 2,
      unsubscribed: 1,
    });

    const received = await Promise.all(
      ['cluster-fcm-1', 'cluster-apns-2', 'cluster-fcm-3'].map((token) => harness.sandbox.deliveries(token)),
    );
    expect(received.map((deliveries) => deliveries.length)).toEqual([2, 2, 0]);
  });

  it("caps and throttles sends: one script per batch over the project's own slot", async () => {
    const capped = await harness.ingress.createProject('team');
    const settings = await request('PATCH', '/settings', capped, { frequencyCap: { max: 1, windowHours: 24 } });
    expect(settings.status).toBe(200);
    await registerDevices(harness.ingress, capped, [
      { id: 'f-1', platform: 'android', token: 'cluster-cap-1', userId: 'fay' },
      { id: 'f-2', platform: 'ios', token: 'cluster-cap-2', userId: 'fay' },
    ]);
    const send = async () =>
      (
        await waitUntilCompleted(
          harness.ingress,
          capped,
          await sendNotification(harness.ingress, capped, {
            targetType: 'userId',
            targetIds: ['fay'],
            body: 'Once a day',
            throttlePerMinute: 600,
          }),
        )
      ).stats;
    expect(await send()).toMatchObject({ targeted: 2, sent: 2, capped: 0 });
    expect(await send()).toMatchObject({ targeted: 2, sent: 0, capped: 2 });
  });

  it('changes the tags of every device of a user', async () => {
    await registerDevices(harness.ingress, team, [
      { id: 'd-1', platform: 'ios', token: 'cluster-tags-1', userId: 'dee' },
    ]);
    const changed = await request('PATCH', '/users/tags', team, { userId: 'dee', tags: { tier: 'gold' } });
    expect(changed.status).toBe(200);
    expect((await request('GET', '/devices/d-1', team)).body.data.tags).toEqual({ tier: 'gold' });
  });

  it('stores events and counts them in segment conditions', async () => {
    await registerDevices(harness.ingress, team, [
      { id: 'e-1', platform: 'android', token: 'cluster-events-1', userId: 'eve' },
    ]);
    const events = [1, 2, 3].map((amount) => ({
      type: 'purchase',
      subjectType: 'user',
      subjectId: 'eve',
      data: { amount },
    }));
    expect((await request('POST', '/events', team, { events })).body.data).toEqual({ success: 3, error: [] });
    const stored = await eventually(async () => {
      const recent = await request('GET', '/events?deviceId=e-1&type=purchase', team);
      expect(recent.body.data).toHaveLength(3);
      return recent.body.data;
    });
    expect(stored[0].subjectId).toBe('eve');
    const segment = await request('POST', '/segments', team, {
      name: 'buyers',
      match: 'all',
      conditions: [{ event: 'purchase', withinDays: 1, count: { op: 'gte', value: 3 } }],
    });
    const preview = await request('GET', `/segments/${segment.body.data.id}/preview`, team);
    expect(preview.body.data).toEqual({ count: 1, sample: ['e-1'] });
  });

  it('holds the starter plan to 100 requests a minute', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 101; index++) statuses.push((await request('GET', '/devices/none', starter)).status);
    expect(statuses.slice(0, 100).every((status) => status === 404)).toBe(true);
    expect(statuses[100]).toBe(429);
  });

  it('keeps every key under a hash tag, spread over all three masters', async () => {
    // The queues share a few fixed tags, which happen to fall on two of the masters; what spreads the load is the keys
    // of each project and API key (rate limit, cached key). 24 projects put 48 such tags in play, so that a master
    // holding none of them is a failure to spread, not chance (its odds are (2/3)^48, under 10^-8).
    for (let index = 0; index < 24; index++) {
      expect((await request('GET', '/devices/none', await harness.ingress.createProject('starter'))).status).toBe(404);
    }
    const census: Record<string, number> = {};
    const untagged: string[] = [];
    for (const master of cluster.masters) {
      const node = new Redis(`redis://${master}`);
      try {
        const keys: string[] = [];
        for await (const found of node.scanStream({ count: 1000 }) as AsyncIterable<string[]>) keys.push(...found);
        census[master] = keys.length;
        untagged.push(...keys.filter((key) => !/\{[^}]+\}/.test(key)));
      } finally {
        node.disconnect();
      }
    }
    process.stdout.write(`[redis cluster] keys per master: ${JSON.stringify(census)}\n`);
    expect(untagged).toEqual([]);
    expect(Object.values(census).every((count) => count > 0)).toBe(true);
  });
});
