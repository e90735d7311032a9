import { createECDH } from 'node:crypto';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { isEventIngestJob, type EventIngestJob } from '../../src/queues/event-ingest.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { markUnsubscribed } from '../../src/devices/mark-unsubscribed.ts';
import { dailyCountKey, dailyCounts } from '../../src/overview/daily-counts.ts';
import { flushAllGatheredCounts } from '../../src/infra/flush-gathered-counts.ts';
import { startOfUtcDay } from '../../src/infra/utc-day.ts';
import { applyUserTags } from '../../src/user-tags/apply-user-tags.ts';

// Device writes take no lock: each is a read and an update guarded by the revision read (src/devices/change-device.ts).
const {
  ingress,
  projects: { project },
} = useIngress({ workers: ['tag-update'], projects: { project: 'team' } });

const sdk = (deviceId: string) => `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`;
const register = (deviceId: string, body: unknown) =>
  ingress.request('PUT', sdk(deviceId), { key: project.clientKey, body });
const update = (deviceId: string, body: unknown) =>
  ingress.request('PATCH', sdk(deviceId), { key: project.clientKey, body });
const changeUserTags = (body: unknown) =>
  ingress.request('PATCH', `/v1/projects/${project.projectId}/users/tags`, { key: project.apiKey, body });
const storedDevice = (deviceId: string) =>
  ingress.context.models.Device.findOne({ projectId: project.projectId, deviceId }).lean();
const numbered = (prefix: string, count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, index]));
const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status).sort();

async function firstSessionsOf(deviceId: string): Promise<number> {
  const jobs = await ingress.context.queues.eventIngest.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
  return jobs
    .filter((job) => isEventIngestJob(job.name))
    .flatMap((job) => (job.data as EventIngestJob).events)
    .filter((event) => event.type === '@first_session' && event.subjectId === deviceId).length;
}

describe('concurrent writes of one device', () => {
  it('keeps every tag of 50 concurrent PATCHes, each setting a different one', async () => {
    await register('burst', { platform: 'android', pushToken: 'burst-token' });
    const keys = Array.from({ length: 50 }, (_, index) => `k${index}`);
    const responses = await Promise.all(keys.map((key) => update('burst', { tags: { [key]: key } })));
    expect(responses.map((response) => response.status)).toEqual(keys.map(() => 200));
    expect((await storedDevice('burst'))?.tags).toEqual(Object.fromEntries(keys.map((key) => [key, key])));
  });

  it('changes a device stored before devices had a revision, and starts its revision', async () => {
    const { Device } = ingress.context.models;
    await Device.collection.insertOne({
      _id: `${project.projectId}:legacy` as never,
      projectId: project.projectId,
      deviceId: 'legacy',
      platform: 'web',
      pushToken: 'legacy-token',
      userId: null,
      tags: { old: 'kept' },
      isSubscribed: true,
    });
    const responses = await Promise.all([update('legacy', { tags: { a: 1 } }), update('legacy', { tags: { b: 2 } })]);
    expect(statuses(responses)).toEqual([200, 200]);
    expect(await storedDevice('legacy')).toMatchObject({ tags: { old: 'kept', a: 1, b: 2 }, revision: 2 });
  });

  it('lets only one of two concurrent PATCHes take a device of 98 tags to 100, the other a 400 that writes nothing', async () => {
    for (let round = 0; round < 10; round++) {
      const deviceId = `nearly-full-${round}`;
      await register(deviceId, { platform: 'ios', pushToken: 'full-token', tags: numbered('t', 98) });
      const [first, second] = await Promise.all([
        update(deviceId, { userId: 'first', tags: { a1: 1, a2: 2 } }),
        update(deviceId, { userId: 'second', tags: { b1: 1, b2: 2 } }),
      ]);
      expect(statuses([first, second]), `round ${round}`).toEqual([200, 400]);
      const refused = first.status === 400 ? first : second;
      expect(refused.body.error.code).toBe('invalid_request');
      expect(refused.body.error.details).toEqual([{ path: '/tags', message: 'would leave the device with 102 tags' }]);
      const stored = await storedDevice(deviceId);
      expect(Object.keys(stored?.tags ?? {})).toHaveLength(100);
      // The refused request changed nothing, its userId included.
      expect(stored?.userId).toBe(first.status === 200 ? 'first' : 'second');
    }
  });

  it('refuses a registration that would pass 100 tags without changing the token either', async () => {
    await register('full-register', { platform: 'web', pushToken: 'kept-token', tags: numbered('t', 99) });
    const refused = await register('full-register', {
      platform: 'android',
      pushToken: 'new-token',
      tags: { x: 1, y: 2 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: '/tags', message: 'would leave the device with 101 tags' }]);
    expect(await storedDevice('full-register')).toMatchObject({ platform: 'web', pushToken: 'kept-token' });
  });

  it('writes nothing for a registration or tag change that leaves the device as it is, and answers the device', async () => {
    const webPush = {
      endpoint: 'https://push.example/same-subscription',
      keys: {
        p256dh: createECDH('prime256v1').generateKeys('base64url'),
        auth: Buffer.alloc(16, 1).toString('base64url'),
      },
    };
    const body = { platform: 'web', webPush, userId: 'same-user', tags: { plan: 'pro', score: 7 } };
    await register('unchanged', body);
    await register('unchanged', body);
    const written = await storedDevice('unchanged');

    const [again, sameTags, deletedAbsent, sameUserTags] = await Promise.all([
      register('unchanged', body),
      update('unchanged', { tags: { plan: 'pro' } }),
      update('unchanged', { tags: { absent: null } }),
      changeUserTags({ userId: 'same-user', tags: { score: 7 } }),
    ]);
    for (const response of [again, sameTags, deletedAbsent]) {
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ id: 'unchanged', tags: { plan: 'pro', score: 7 } });
    }
    expect(sameUserTags.status).toBe(200);
    expect(sameUserTags.body.data).toEqual({
      devices: [{ id: 'unchanged', userId: 'same-user', tags: { plan: 'pro', score: 7 } }],
    });
    expect(await storedDevice('unchanged')).toEqual(written);

    expect((await update('unchanged', { tags: { score: 8 } })).status).toBe(200);
    expect(await storedDevice('unchanged')).toMatchObject({
      tags: { plan: 'pro', score: 8 },
      revision: written!.revision + 1,
    });
  });

  it('keeps a new device answered 200 to a repeat registration while its creator fails to queue @first_session', async () => {
    const body = { platform: 'android', pushToken: 'first-token' };
    let repeat: Awaited<ReturnType<typeof register>> | undefined;
    // The creator's request, its device stored, fails to queue @first_session, but only after a repeat registration of
    // the same device was answered: the creator then removes its device unless that repeat wrote it.
    const queueing = vi.spyOn(ingress.context.queues.eventIngest, 'add').mockImplementationOnce(async () => {
      repeat = await register('kept-new', body);
      // What ioredis throws while Redis is away.
      throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
    });
    onTestFinished(() => queueing.mockRestore());
    const creator = await register('kept-new', body);
    expect(queueing).toHaveBeenCalledTimes(1);
    expect(creator.status).toBe(503);
    expect(repeat?.status).toBe(200);
    expect(await storedDevice('kept-new')).toMatchObject({ pushToken: 'first-token', isSubscribed: true });
  });

  it('creates a new device registered by concurrent PUTs once, with one @first_session', async () => {
    for (let round = 0; round < 5; round++) {
      const deviceId = `raced-${round}`;
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          register(deviceId, { platform: 'android', pushToken: `token-${index}`, tags: { [`by${index}`]: index } }),
        ),
      );
      expect(
        responses.map((response) => response.status),
        `round ${round}`,
      ).toEqual(responses.map(() => 200));
      expect(await ingress.context.models.Device.countDocuments({ projectId: project.projectId, deviceId })).toBe(1);
      expect(await firstSessionsOf(deviceId)).toBe(1);
      // Every registration's tag is there: the ones that did not create the device updated it.
      expect(Object.keys((await storedDevice(deviceId))?.tags ?? {}).sort()).toEqual(
        Array.from({ length: 8 }, (_, index) => `by${index}`).sort(),
      );
    }
  });

  it('never leaves unsubscribed a device that registers a new token while the gateway rejects its old one', async () => {
    for (let round = 0; round < 10; round++) {
      const deviceId = `renewed-${round}`;
      await register(deviceId, { platform: 'android', pushToken: 'old-token' });
      const rejection = { deviceId, pushToken: 'old-token', reason: 'UNREGISTERED' };
      const [registered] = await Promise.all([
        register(deviceId, { platform: 'android', pushToken: 'new-token' }),
        markUnsubscribed(ingress.context, project.projectId, [rejection], new Date()),
      ]);
      expect(registered.status).toBe(200);
      expect(registered.body.data.isSubscribed, `round ${round}`).toBe(true);
      expect(await storedDevice(deviceId), `round ${round}`).toMatchObject({
        pushToken: 'new-token',
        isSubscribed: true,
        unsubscribedAt: null,
        unsubscribeReason: null,
        rejectedPushToken: null,
      });
    }
  });

  it('holds the limit when a user tag change races SDK tag changes: every 200 is kept, every 400 wrote nothing', async () => {
    for (let round = 0; round < 10; round++) {
      const deviceId = `shared-${round}`;
      const userId = `user-${round}`;
      await register(deviceId, { platform: 'ios', pushToken: 'shared-token', userId, tags: numbered('t', 95) });
      // Spread over the time the tag-update worker takes, so that some land between its read and its write.
      const sdkChanges = Array.from({ length: 8 }, (_, index) =>
        delay(index * 4).then(() => update(deviceId, { tags: { [`s${index}`]: index } })),
      );
      const [userChange, ...sdkResponses] = await Promise.all([
        changeUserTags({ userId, tags: { u1: 1, u2: 2 } }),
        ...sdkChanges,
      ]);
      const tags = (await storedDevice(deviceId))?.tags ?? {};
      const userApplied = userChange.status === 200;
      expect([userChange, ...sdkResponses].every((response) => [200, 400].includes(response.status))).toBe(true);
      expect([Object.hasOwn(tags, 'u1'), Object.hasOwn(tags, 'u2')]).toEqual([userApplied, userApplied]);
      sdkResponses.forEach((response, index) => {
        expect(Object.hasOwn(tags, `s${index}`), `s${index}`).toBe(response.status === 200);
      });
      const sdkApplied = sdkResponses.filter((response) => response.status === 200).length;
      expect(Object.keys(tags)).toHaveLength(95 + (userApplied ? 2 : 0) + sdkApplied);
      expect(Object.keys(tags).length).toBeLessThanOrEqual(100);
    }
  });

  it("reports over the limit a device filled between the read of the user's devices and its update; the others keep the change", async () => {
    await register('late-full', { platform: 'ios', pushToken: 'late-1', userId: 'late', tags: numbered('t', 98) });
    await register('late-other', { platform: 'ios', pushToken: 'late-2', userId: 'late' });
    const { models } = ingress.context;
    // The read of the user's devices finds room for two tags on late-full; an SDK write takes one of them just after.
    const Device = new Proxy(models.Device, {
      get(target, property, receiver) {
        if (property !== 'find') return Reflect.get(target, property, receiver);
        return (...query: Parameters<typeof target.find>) => ({
          sort: (order: Record<string, 1 | -1>) => ({
            read: () => ({
              lean: async () => {
                const devices = await target
                  .find(...query)
                  .sort(order)
                  .lean();
                await update('late-full', { tags: { filler: 1 } });
                return devices;
              },
            }),
          }),
        });
      },
    });
    const result = await applyUserTags(
      { ...models, Device },
      { projectId: project.projectId, userId: 'late', tags: { x: 1, y: 2 } },
    );
    expect(result).toEqual({ overLimit: [{ deviceId: 'late-full', tagCount: 101 }] });
    expect(Object.keys((await storedDevice('late-full'))?.tags ?? {})).toHaveLength(99);
    expect((await storedDevice('late-other'))?.tags).toEqual({ x: 1, y: 2 });
  });
});

describe('tag keys as field paths (CONTRACTS §4)', () => {
  const awkward = {
    ' leading': 'a',
    'trailing ': 'b',
    ' ': 'blank',
    '\tboth\u00a0': 3,
    'two words': 4,
    a$b: 5,
    '0': 6,
    'ü-ключ': 7,
  };

  it('sets and deletes keys with spaces, $ inside, digits or any script, and stores values such as "$x" as they are', async () => {
    const created = await register('awkward', { platform: 'web', pushToken: 'w', tags: { ...awkward, path: '$tags' } });
    expect(created.body.data.tags).toEqual({ ...awkward, path: '$tags' });
    const renewed = await register('awkward', {
      platform: 'web',
      pushToken: 'w2',
      tags: { ' leading': null, now: '$$NOW', expression: '{"$literal": 1}' },
    });
    const { ' leading': _deleted, ...rest } = awkward;
    expect(renewed.body.data.tags).toEqual({ ...rest, path: '$tags', now: '$$NOW', expression: '{"$literal": 1}' });
    const changed = await update('awkward', {
      tags: { ' ': null, 'trailing ': 'c', '\tboth\u00a0': null, 'new key ': 8 },
    });
    const expected = {
      'trailing ': 'c',
      'two words': 4,
      a$b: 5,
      '0': 6,
      'ü-ключ': 7,
      path: '$tags',
      now: '$$NOW',
      expression: '{"$literal": 1}',
      'new key ': 8,
    };
    expect(changed.body.data.tags).toEqual(expected);
    expect((await storedDevice('awkward'))?.tags).toEqual(expected);
  });
});

describe('markUnsubscribed', () => {
  it('unsubscribes, in one call, only the devices still holding the rejected token and subscribed', async () => {
    for (const [deviceId, pushToken] of [
      ['dead-1', 'dead-1'],
      ['dead-2', 'dead-2'],
      ['moved', 'moved-new'],
      ['already', 'already'],
    ]) {
      await register(deviceId!, { platform: 'android', pushToken });
    }
    const earlier = new Date('2024-01-01T00:00:00Z');
    await markUnsubscribed(
      ingress.context,
      project.projectId,
      [{ deviceId: 'already', pushToken: 'already', reason: 'BEFORE' }],
      earlier,
    );
    const now = new Date();
    await markUnsubscribed(
      ingress.context,
      project.projectId,
      [
        { deviceId: 'dead-1', pushToken: 'dead-1', reason: 'UNREGISTERED' },
        { deviceId: 'dead-2', pushToken: 'dead-2', reason: 'BadDeviceToken' },
        { deviceId: 'moved', pushToken: 'moved-old', reason: 'UNREGISTERED' },
        { deviceId: 'already', pushToken: 'already', reason: 'UNREGISTERED' },
        { deviceId: 'never-registered', pushToken: 'x', reason: 'UNREGISTERED' },
      ],
      now,
    );
    expect(await storedDevice('dead-1')).toMatchObject({
      isSubscribed: false,
      unsubscribedAt: now,
      unsubscribeReason: 'UNREGISTERED',
      rejectedPushToken: 'dead-1',
    });
    expect(await storedDevice('dead-2')).toMatchObject({ isSubscribed: false, unsubscribeReason: 'BadDeviceToken' });
    expect(await storedDevice('moved')).toMatchObject({
      isSubscribed: true,
      unsubscribeReason: null,
      rejectedPushToken: null,
    });
    expect(await storedDevice('already')).toMatchObject({
      isSubscribed: false,
      unsubscribedAt: earlier,
      unsubscribeReason: 'BEFORE',
    });
    expect(await storedDevice('never-registered')).toBeNull();
  });

  it('writes the rejections of calls made at once each with its reason and time, counted on each project and day', async () => {
    const other = await ingress.createProject('team');
    const seed = (projectId: string, deviceId: string) =>
      ingress.context.models.Device.collection.insertOne({
        _id: `${projectId}:${deviceId}` as never,
        projectId,
        deviceId,
        platform: 'android',
        pushToken: `${deviceId}-token`,
        isSubscribed: true,
        revision: 1,
      });
    await seed(project.projectId, 'round-a');
    await seed(project.projectId, 'round-b');
    await seed(project.projectId, 'round-old');
    await seed(other.projectId, 'round-c');
    const rejection = (deviceId: string, reason: string) => ({ deviceId, pushToken: `${deviceId}-token`, reason });
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * 24 * 3600 * 1000);
    const { DailyCount } = ingress.context.models;
    // The day's document once the counts gathered in Redis are flushed into it.
    const subscribedOn = async (projectId: string, at: Date) => {
      await flushAllGatheredCounts(ingress.context, dailyCounts, projectId);
      return (await DailyCount.findById(dailyCountKey(projectId, startOfUtcDay(at))).lean())?.subscribed ?? 0;
    };
    const before = await Promise.all([
      subscribedOn(project.projectId, now),
      subscribedOn(project.projectId, twoDaysAgo),
    ]);
    await Promise.all([
      markUnsubscribed(ingress.context, project.projectId, [rejection('round-a', 'UNREGISTERED')], now),
      markUnsubscribed(ingress.context, project.projectId, [rejection('round-b', '$BadDeviceToken')], now),
      markUnsubscribed(ingress.context, project.projectId, [rejection('round-old', 'UNREGISTERED')], twoDaysAgo),
      markUnsubscribed(ingress.context, other.projectId, [rejection('round-c', 'UNREGISTERED')], now),
    ]);
    expect(await storedDevice('round-a')).toMatchObject({ isSubscribed: false, unsubscribeReason: 'UNREGISTERED' });
    expect(await storedDevice('round-b')).toMatchObject({ isSubscribed: false, unsubscribeReason: '$BadDeviceToken' });
    expect(await storedDevice('round-old')).toMatchObject({ isSubscribed: false, unsubscribedAt: twoDaysAgo });
    expect(await subscribedOn(project.projectId, now)).toBe(before[0]! - 2);
    expect(await subscribedOn(project.projectId, twoDaysAgo)).toBe(before[1]! - 1);
    expect(await subscribedOn(other.projectId, now)).toBe(-1);
  });

  it('starts the revision of a device stored before devices had one, as any other write of it does', async () => {
    await ingress.context.models.Device.collection.insertOne({
      _id: `${project.projectId}:legacy-dead` as never,
      projectId: project.projectId,
      deviceId: 'legacy-dead',
      platform: 'android',
      pushToken: 'legacy-dead-token',
      isSubscribed: true,
    });
    const at = new Date();
    const rejection = { deviceId: 'legacy-dead', pushToken: 'legacy-dead-token', reason: 'UNREGISTERED' };
    await markUnsubscribed(ingress.context, project.projectId, [rejection], at);
    expect(await storedDevice('legacy-dead')).toMatchObject({ isSubscribed: false, unsubscribedAt: at, revision: 1 });
  });
});
