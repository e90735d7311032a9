import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { isEventIngestJob, type EventIngestJob } from '../../src/queues/event-ingest.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const sdk = (deviceId: string) => `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`;
const register = (deviceId: string, body: unknown) =>
  ingress.request('PUT', sdk(deviceId), { key: project.clientKey, body });
const update = (deviceId: string, body: unknown) =>
  ingress.request('PATCH', sdk(deviceId), { key: project.clientKey, body });
const read = (deviceId: string) =>
  ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, { key: project.apiKey });

async function storedDevice(deviceId: string) {
  return ingress.context.models.Device.findOne({ projectId: project.projectId, deviceId }).lean();
}

describe('device registration and updates (CONTRACTS §3)', () => {
  it('registers a device and reads back the four fields of spec §2.2', async () => {
    const created = await register('phone-1', {
      platform: 'android',
      pushToken: 'fcm-token-1',
      userId: 'alice@example.com',
      tags: { plan: 'pro', visits: 3 },
    });
    expect(created.status).toBe(200);
    const expected = {
      id: 'phone-1',
      userId: 'alice@example.com',
      tags: { plan: 'pro', visits: 3 },
      isSubscribed: true,
    };
    expect(created.body).toEqual({ data: expected });
    expect((await read('phone-1')).body).toEqual({ data: expected });
  });

  it('accepts device ids of the allowed characters up to 128 long', async () => {
    const id = `A-z_0.9:${'x'.repeat(120)}`;
    expect((await register(id, { platform: 'web', pushToken: 'w' })).status).toBe(200);
    expect((await read(id)).body.data.id).toBe(id);
    expect((await register(`${id}y`, { platform: 'web', pushToken: 'w' })).status).toBe(400);
  });

  it('merges tags on update, a null deleting one, and links and unlinks the user', async () => {
    await register('phone-2', { platform: 'ios', pushToken: 'apns-1', tags: { a: 'x', b: 1 } });
    const changed = await update('phone-2', { userId: 'bob', tags: { b: null, c: 1713500000000 } });
    expect(changed.body.data).toEqual({
      id: 'phone-2',
      userId: 'bob',
      tags: { a: 'x', c: 1713500000000 },
      isSubscribed: true,
    });
    const unlinked = await update('phone-2', { userId: null });
    expect(unlinked.body.data.userId).toBeNull();
    expect(unlinked.body.data.tags).toEqual({ a: 'x', c: 1713500000000 });
  });

  it('re-registering keeps the device and updates its token and platform', async () => {
    await register('phone-3', { platform: 'android', pushToken: 'old' });
    await register('phone-3', { platform: 'android', pushToken: 'new', tags: { k: 'v' } });
    const stored = await storedDevice('phone-3');
    expect(stored?.pushToken).toBe('new');
    expect(stored?.tags).toEqual({ k: 'v' });
    expect(
      await ingress.context.models.Device.countDocuments({ projectId: project.projectId, deviceId: 'phone-3' }),
    ).toBe(1);
  });

  it('updating an unknown device is a 404', async () => {
    const response = await update('nobody', { tags: { a: 1 } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it.each([
    ['a key starting with $', { $where: 'x' }, '/tags/$where'],
    ['a dotted key', { 'a.b': 'x' }, '/tags/a.b'],
    ['a key over 64 characters', { ['k'.repeat(65)]: 'x' }, `/tags/${'k'.repeat(65)}`],
    ['an object value', { nested: { x: 1 } }, '/tags/nested'],
    ['a boolean value', { flag: true }, '/tags/flag'],
    ['an array value', { list: ['a'] }, '/tags/list'],
    ['a string over 1024 characters', { long: 'x'.repeat(1025) }, '/tags/long'],
  ])('refuses %s with a 400 naming the key, and writes nothing', async (_case, tags, path) => {
    await register('strict', { platform: 'web', pushToken: 'w', tags: { keep: 'me' } });
    const response = await update('strict', { tags: { fine: 'ok', ...tags } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([path]);
    expect((await storedDevice('strict'))?.tags).toEqual({ keep: 'me' });
    const registerResponse = await register('never-created', { platform: 'web', pushToken: 'w', tags });
    expect(registerResponse.status).toBe(400);
    expect(await storedDevice('never-created')).toBeNull();
  });

  it('refuses an update that would leave more than 100 tags, and writes nothing', async () => {
    const ninetyNine = Object.fromEntries(Array.from({ length: 99 }, (_, index) => [`t${index}`, index]));
    expect((await register('full', { platform: 'web', pushToken: 'w', tags: ninetyNine })).status).toBe(200);
    expect((await update('full', { tags: { extra: 1 } })).status).toBe(200);
    const refused = await update('full', { tags: { oneTooMany: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('/tags');
    expect(Object.keys((await storedDevice('full'))?.tags ?? {})).toHaveLength(100);
    expect((await update('full', { tags: { t0: null, replacement: 1 } })).status).toBe(200);
    // The limit is on the device: all 100 replaced in one call is 200 changes, and one more change is refused.
    const replaced = Object.fromEntries(
      Object.keys((await storedDevice('full'))?.tags ?? {}).map((key) => [key, null]),
    );
    const fresh = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`fresh${index}`, index]));
    expect((await update('full', { tags: { ...replaced, ...fresh } })).status).toBe(200);
    expect(Object.keys((await storedDevice('full'))?.tags ?? {}).sort()).toEqual(Object.keys(fresh).sort());
    const tooMany = await update('full', { tags: { ...fresh, ...replaced, oneMore: null } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details).toEqual([
      { path: '/tags', message: 'must be an object of at most 200 tag changes' },
    ]);
  });

  it('applies concurrent tag updates of one device without losing any', async () => {
    await register('busy', { platform: 'android', pushToken: 'b' });
    const keys = Array.from({ length: 12 }, (_, index) => `k${index}`);
    const responses = await Promise.all(keys.map((key) => update('busy', { tags: { [key]: key } })));
    expect(responses.map((response) => response.status)).toEqual(keys.map(() => 200));
    expect((await storedDevice('busy'))?.tags).toEqual(Object.fromEntries(keys.map((key) => [key, key])));
  });

  it('enqueues @first_session for a new device only', async () => {
    await register('fresh', { platform: 'ios', pushToken: 'f' });
    await register('fresh', { platform: 'ios', pushToken: 'f2' });
    const jobs = await ingress.context.queues.eventIngest.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
    const firstSessions = jobs
      .filter((job) => isEventIngestJob(job.name))
      .flatMap((job) =>
        (job.data as EventIngestJob).events.map((event) => ({
          ...event,
          projectId: (job.data as EventIngestJob).projectId,
        })),
      )
      .filter((event) => event.subjectId === 'fresh');
    expect(firstSessions).toEqual([
      { type: '@first_session', subjectType: 'device', subjectId: 'fresh', data: {}, projectId: project.projectId },
    ]);
  });

  it('subscribes a device again only when it registers a token other than the rejected one', async () => {
    await register('gone', { platform: 'android', pushToken: 'rejected-token' });
    await ingress.context.models.Device.updateOne(
      { projectId: project.projectId, deviceId: 'gone' },
      {
        $set: {
          isSubscribed: false,
          unsubscribedAt: new Date(),
          unsubscribeReason: 'UNREGISTERED',
          rejectedPushToken: 'rejected-token',
        },
      },
    );
    expect((await register('gone', { platform: 'android', pushToken: 'rejected-token' })).body.data.isSubscribed).toBe(
      false,
    );
    expect((await register('gone', { platform: 'android', pushToken: 'fresh-token' })).body.data.isSubscribed).toBe(
      true,
    );
    const stored = await storedDevice('gone');
    expect(stored?.unsubscribeReason).toBeNull();
  });

  it("keeps each project's devices apart", async () => {
    const second = await ingress.createProject('team');
    await register('shared-id', { platform: 'web', pushToken: 'one', tags: { owner: 'first' } });
    const path = `/v1/sdk/projects/${second.projectId}/devices/shared-id`;
    await ingress.request('PUT', path, {
      key: second.clientKey,
      body: { platform: 'web', pushToken: 'two', tags: { owner: 'second' } },
    });
    expect((await read('shared-id')).body.data.tags).toEqual({ owner: 'first' });
  });
});
