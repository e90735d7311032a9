import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { waitFor } from '../support/eventually.ts';
import { flushAllGatheredCounts } from '../../src/infra/flush-gathered-counts.ts';
import { eventTypeCounts } from '../../src/events/event-type-counts.ts';

const {
  ingress,
  workers,
  projects: { project },
} = useIngress({ workers: ['event-ingest'], projects: { project: 'team' } });

const serverPath = (suffix: string) => `/v1/projects/${project.projectId}${suffix}`;
const report = (events: unknown, path = '/events') =>
  ingress.request('POST', serverPath(path), { key: project.apiKey, body: { events } });
const recent = (query = '') => ingress.request('GET', serverPath(`/events${query}`), { key: project.apiKey });
const registerDevice = (deviceId: string, userId?: string) =>
  ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`, {
    key: project.clientKey,
    body: { platform: 'android', pushToken: `token-${deviceId}`, ...(userId && { userId }) },
  });
const trackFromSdk = (deviceId: string, body: unknown) =>
  ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}/events`, {
    key: project.clientKey,
    body,
  });

/** Waits until the worker has stored events matching the query. */
const eventsStored = (query: string, count: number) =>
  waitFor(
    async () => (await recent(query)).body.data as any[],
    (events) => events.length >= count,
  );

const userEvent = (type: string, subjectId: string, data?: object) => ({
  type,
  subjectType: 'user',
  subjectId,
  ...(data && { data }),
});

describe('POST /events and /track (CONTRACTS §5)', () => {
  it('accepts the valid events of a mixed batch and lists each invalid one with its index', async () => {
    const response = await report([
      userEvent('mixed_ok', 'mixed-user'),
      { type: 'x', subjectType: 'team', subjectId: 'u' },
      userEvent('mixed_ok', 'mixed-user', { n: 1 }),
      'not an event',
      { type: '', subjectType: 'user', subjectId: 'u' },
      { type: 'x', subjectType: 'user', subjectId: '' },
      userEvent('x', 'u', { nested: { a: 1 } }),
      { type: 'x', subjectType: 'user', subjectId: 'u', extra: 1 },
      userEvent('@clicked', 'u'),
      userEvent('mixed_ok', 'mixed-user', { n: 2 }),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data.success).toBe(3);
    const errors = response.body.data.error.map(({ index, code }: { index: number; code: string }) => [index, code]);
    expect(errors).toEqual([
      [1, 'invalid_subject'],
      [3, 'invalid_event'],
      [4, 'invalid_type'],
      [5, 'invalid_subject'],
      [6, 'invalid_data'],
      [7, 'invalid_event'],
      [8, 'reserved_type'],
    ]);
    for (const error of response.body.data.error) expect(error.message.length).toBeGreaterThan(10);
    expect(response.body.data.error[4].message).toContain('nested');
    const stored = await eventsStored('?userId=mixed-user', 3);
    expect(stored.map((event) => event.data.n ?? null).sort()).toEqual([1, 2, null]);
  });

  it('names the missing field of an event, with the code of that field', async () => {
    const response = await report([
      { subjectType: 'user', subjectId: 'u' },
      { type: 'x', subjectType: 'user' },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data.error).toEqual([
      { index: 0, code: 'invalid_type', message: 'type is required' },
      { index: 1, code: 'invalid_subject', message: 'subjectId is required' },
    ]);
  });

  it('accepts 500 events in one request and refuses 501, 0, or a body without an events array', async () => {
    const batch = (size: number) =>
      Array.from({ length: size }, (_, index) => userEvent('bulk', 'bulk-user', { index }));
    const accepted = await report(batch(500));
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({ success: 500, error: [] });
    for (const body of [{ events: batch(501) }, { events: [] }, {}, { events: 'x' }, [], { events: [], more: 1 }]) {
      const refused = await ingress.request('POST', serverPath('/events'), { key: project.apiKey, body });
      expect(refused.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
    }
    const notJson = await ingress.request('POST', serverPath('/events'), {
      key: project.apiKey,
      rawBody: '{"events": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    const stored = await eventsStored('?userId=bulk-user&limit=500', 500);
    expect(new Set(stored.map((event) => event.data.index)).size).toBe(500);
  });

  it('stores the events of a request once when it is repeated with its Idempotency-Key, even after its job is gone', async () => {
    const events = [userEvent('keyed', 'keyed-user'), userEvent('keyed', 'keyed-user', { n: 2 })];
    const send = (key: string) =>
      ingress.request('POST', serverPath('/events'), {
        key: project.apiKey,
        body: { events },
        headers: { 'idempotency-key': key },
      });
    expect((await send('batch-1')).body.data).toEqual({ success: 2, error: [] });
    await eventsStored('?userId=keyed-user', 2);
    // Finished jobs leave Redis (the last 1,000 stay): the repeat queues the same job again, which stores nothing new.
    const queue = ingress.context.queues.eventIngest;
    const finished = await waitFor(
      async () =>
        (await queue.getJobs(['completed'])).filter((done) => done.data.events[0]?.subjectId === 'keyed-user'),
      (jobs) => jobs.length === 1,
    );
    const job = finished[0];
    await job!.remove();
    expect((await send('batch-1')).body.data).toEqual({ success: 2, error: [] });
    await waitFor(
      async () => (await queue.getJob(job!.id!))?.getState(),
      (state) => state === 'completed',
    );
    expect((await recent('?userId=keyed-user')).body.data).toHaveLength(2);
    // Another key is another request.
    await send('batch-2');
    await eventsStored('?userId=keyed-user', 4);
    // The key again with other events: neither stored nor dropped in silence.
    const reused = await ingress.request('POST', serverPath('/events'), {
      key: project.apiKey,
      body: { events: [userEvent('keyed', 'keyed-user', { n: 3 })] },
      headers: { 'idempotency-key': 'batch-2' },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(reused.body.error.details).toEqual([{ path: '/headers/idempotency-key', message: expect.any(String) }]);
  });

  it('takes and answers the same shapes on /track', async () => {
    const response = await report(
      [userEvent('tracked', 'track-user'), userEvent('@first_session', 'track-user')],
      '/track',
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      success: 1,
      error: [{ index: 1, code: 'reserved_type', message: expect.any(String) }],
    });
    const refused = await ingress.request('POST', serverPath('/track'), { key: project.apiKey, body: { events: [] } });
    expect(refused.status).toBe(400);
    await eventsStored('?userId=track-user', 1);
  });

  it('stores every data type, ISO times with a zone as times, and keeps near misses as the strings sent', async () => {
    const data = {
      text: 'hello',
      amount: 12.5,
      paid: true,
      nothing: null,
      names: ['a', 'b'],
      scores: [1, 2.5],
      empty: [],
      zoned: '2024-04-19T14:23:56+09:00',
      utc: '2024-04-19T05:23:56.000Z',
      millis: 1713504236000,
      noZone: '2024-04-19T14:23:56',
      spaced: '2024-04-19 14:23:56',
      impossible: '2024-02-30T10:00:00Z',
    };
    expect((await report([userEvent('typed', 'typed-user', data)])).body.data).toEqual({ success: 1, error: [] });
    const [event] = await eventsStored('?userId=typed-user', 1);
    expect(event.data).toEqual({ ...data, zoned: '2024-04-19T05:23:56.000Z' });
    const stored = await workers.context.models.Event.findOne({
      projectId: project.projectId,
      subjectId: 'typed-user',
    }).lean();
    const storedData = stored!.data as Record<string, unknown>;
    expect(storedData.zoned).toBeInstanceOf(Date);
    expect(storedData.utc).toBeInstanceOf(Date);
    expect((storedData.zoned as Date).getTime()).toBe((storedData.utc as Date).getTime());
    expect(storedData.millis).toBe(1713504236000);
    for (const key of ['noZone', 'spaced', 'impossible', 'text'] as const) expect(storedData[key]).toBe(data[key]);
  });

  it('refuses, per event, data that is not of an allowed type', async () => {
    const tooManyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, index]));
    const badData = [
      { nested: { a: 1 } },
      { mixed: ['a', 1] },
      { objects: [{ a: 1 }] },
      { long: Array.from({ length: 101 }, () => 1) },
      tooManyKeys,
      { 'a.b': 1 },
      { $where: 1 },
      'text',
      [1],
    ];
    const response = await report([
      ...badData.map((data) => userEvent('bad', 'bad-user', data as object)),
      userEvent('ok', 'bad-user', { k: 1 }),
    ]);
    expect(response.body.data.success).toBe(1);
    expect(response.body.data.error.map((error: { index: number }) => error.index)).toEqual(
      badData.map((_, index) => index),
    );
    expect(new Set(response.body.data.error.map((error: { code: string }) => error.code))).toEqual(
      new Set(['invalid_data']),
    );
    const hundredKeys = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, index]));
    expect((await report([userEvent('wide', 'bad-user', hundredKeys)])).body.data.success).toBe(1);
    // A key of 64 characters as a segment's where.field counts them (an emoji is one), and not one more.
    const emojiKey = (length: number) => ({ ['🛒'.repeat(length)]: 1 });
    expect((await report([userEvent('emoji', 'bad-user', emojiKey(64))])).body.data.success).toBe(1);
    expect((await report([userEvent('emoji', 'bad-user', emojiKey(65))])).body.data.success).toBe(0);
  });
});

describe('automatic events', () => {
  it('records @first_session when a device is created, and only then', async () => {
    expect((await registerDevice('fresh-device')).status).toBe(200);
    expect((await registerDevice('fresh-device')).status).toBe(200);
    const [event] = await eventsStored('?deviceId=fresh-device', 1);
    expect(event).toMatchObject({ type: '@first_session', subjectType: 'device', subjectId: 'fresh-device', data: {} });
    await trackFromSdk('fresh-device', { type: 'after' });
    const events = await eventsStored('?deviceId=fresh-device', 2);
    expect(events.map((stored) => stored.type)).toEqual(['after', '@first_session']);
  });

  it('lets the SDK send custom events and the automatic events it owns, and nothing else reserved', async () => {
    await registerDevice('sdk-device', 'sdk-user');
    for (const type of ['@clicked', '@iam_displayed', '@iam_clicked', '@iam_closed', 'viewed']) {
      const response = await trackFromSdk('sdk-device', { type, data: { at: '2024-04-19T05:23:56Z' } });
      expect(response.status, type).toBe(200);
      expect(response.body).toEqual({ data: { success: 1, error: [] } });
    }
    for (const body of [
      { type: '@first_session' },
      { type: '@made_up' },
      { type: 'x', data: { a: { b: 1 } } },
      { type: '' },
      {},
    ]) {
      const response = await trackFromSdk('sdk-device', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    const paths = async (body: object) =>
      (await trackFromSdk('sdk-device', body)).body.error.details.map((detail: { path: string }) => detail.path);
    expect(await paths({ type: '@first_session', data: { a: { b: 1 } } })).toEqual(['/type', '/data/a']);
    // Every bad entry of data at once, each by its key (in no particular order).
    expect(
      (await paths({ type: 'x', data: { x: { a: 1 }, y: [1, 'a'], $z: 1, 'a/b': { c: 1 }, ok: 2 } })).sort(),
    ).toEqual(['/data/$z', '/data/a~1b', '/data/x', '/data/y']);
    expect(await paths({ type: 'x', data: [1] })).toEqual(['/data']);
    expect(await paths({ type: '@made_up', extra: 1 })).toEqual(['/extra', '/type']);
    expect((await trackFromSdk('no-such-device', { type: 'viewed' })).status).toBe(404);
    const events = await eventsStored('?deviceId=sdk-device&limit=10', 6);
    expect(events.map((event) => event.type).sort()).toEqual([
      '@clicked',
      '@first_session',
      '@iam_clicked',
      '@iam_closed',
      '@iam_displayed',
      'viewed',
    ]);
    expect((await recent('?userId=sdk-user&limit=10')).body.data).toEqual(events);
  });

  it('refuses the SDK endpoint to the server key', async () => {
    const response = await ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/sdk-device/events`, {
      key: project.apiKey,
      body: { type: 'x' },
    });
    expect(response.status).toBe(403);
  });
});

describe('event catalog', () => {
  const listTypes = async () =>
    (await ingress.request('GET', serverPath('/event-types'), { key: project.apiKey })).body.data as any[];

  it('adds a newly reported type automatically after ingest', async () => {
    expect((await listTypes()).map((entry) => entry.type)).not.toContain('catalog_auto');
    await report([userEvent('catalog_auto', 'catalog-user')]);
    const types = await waitFor(listTypes, (entries) => entries.some((entry) => entry.type === 'catalog_auto'));
    expect(types.find((entry) => entry.type === 'catalog_auto')).toEqual({
      type: 'catalog_auto',
      source: 'auto',
      createdAt: expect.any(String),
      last30Days: 1,
      lastSeenOn: new Date().toISOString().slice(0, 10),
    });
  });

  it('counts each type over 30 days with the last day seen, the same before and after the counts are flushed', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const figures = async () => {
      const entry = (await listTypes()).find((candidate) => candidate.type === 'catalog_counted');
      return entry && { last30Days: entry.last30Days, lastSeenOn: entry.lastSeenOn };
    };
    const old = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    old.setUTCHours(0, 0, 0, 0);
    const fiveDaysAgo = new Date(Date.now() - 5 * 24 * 3600 * 1000);
    fiveDaysAgo.setUTCHours(0, 0, 0, 0);
    // Days written by earlier flushes: one inside the window, one before it, which is not counted.
    await ingress.context.models.EventTypeDay.create([
      {
        _id: JSON.stringify([project.projectId, 'catalog_counted', old.getTime()]),
        projectId: project.projectId,
        type: 'catalog_counted',
        day: old,
        count: 50,
        flush: 1,
      },
      {
        _id: JSON.stringify([project.projectId, 'catalog_counted', fiveDaysAgo.getTime()]),
        projectId: project.projectId,
        type: 'catalog_counted',
        day: fiveDaysAgo,
        count: 4,
        flush: 1,
      },
    ]);
    await report([userEvent('catalog_counted', 'counted-user'), userEvent('catalog_counted', 'counted-user')]);
    await report([userEvent('catalog_counted', 'other-user'), userEvent('catalog_other', 'other-user')]);
    expect(await waitFor(figures, (seen) => seen?.last30Days === 7)).toEqual({ last30Days: 7, lastSeenOn: today });
    await flushAllGatheredCounts(ingress.context, eventTypeCounts, project.projectId);
    expect(await figures()).toEqual({ last30Days: 7, lastSeenOn: today });
    const stored = await ingress.context.models.EventTypeDay.find({
      projectId: project.projectId,
      type: 'catalog_counted',
    }).lean();
    expect(stored.map((entry) => entry.count).sort((a, b) => a - b)).toEqual([3, 4, 50]);
  });

  it('adds a type manually, usable at once, and keeps the first entry when it is added again', async () => {
    const added = await ingress.request('POST', serverPath('/event-types'), {
      key: project.apiKey,
      body: { type: 'catalog_manual' },
    });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({
      type: 'catalog_manual',
      source: 'manual',
      createdAt: expect.any(String),
      last30Days: 0,
      lastSeenOn: null,
    });
    expect((await listTypes()).find((entry) => entry.type === 'catalog_manual')).toEqual(added.body.data);
    const again = await ingress.request('POST', serverPath('/event-types'), {
      key: project.apiKey,
      body: { type: 'catalog_manual' },
    });
    expect(again.body.data).toEqual(added.body.data);
    expect(
      (await ingress.request('POST', serverPath('/event-types'), { key: project.apiKey, body: { type: '@clicked' } }))
        .status,
    ).toBe(200);
    for (const type of ['@nope', '', 'x'.repeat(65)]) {
      expect(
        (await ingress.request('POST', serverPath('/event-types'), { key: project.apiKey, body: { type } })).status,
        type,
      ).toBe(400);
    }
    const both = await ingress.request('POST', serverPath('/event-types'), {
      key: project.apiKey,
      body: { type: '@nope', extra: 1 },
    });
    expect(both.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['/extra', '/type']);
  });
});

describe('recent events', () => {
  it("filters by user (theirs and their devices'), device (its own and its user's) and type, newest first, with a limit", async () => {
    await registerDevice('recent-phone', 'recent-user');
    await registerDevice('recent-tablet', 'recent-user');
    await registerDevice('recent-other', 'someone-else');
    await report([
      userEvent('login', 'recent-user'),
      { type: 'tap', subjectType: 'device', subjectId: 'recent-phone' },
    ]);
    await report([
      userEvent('purchase', 'recent-user', { amount: 5 }),
      { type: 'tap', subjectType: 'device', subjectId: 'recent-other' },
    ]);
    const byUser = await eventsStored('?userId=recent-user', 5);
    expect(byUser.map((event) => event.type)).toEqual(['purchase', 'tap', 'login', '@first_session', '@first_session']);
    const phone = await eventsStored('?deviceId=recent-phone', 4);
    expect(phone.map((event) => event.type)).toEqual(['purchase', 'tap', 'login', '@first_session']);
    const tablet = (await recent('?deviceId=recent-tablet')).body.data;
    expect(tablet.map((event: { type: string }) => event.type)).toEqual(['purchase', 'login', '@first_session']);
    expect((await recent('?deviceId=recent-phone&type=tap')).body.data).toHaveLength(1);
    expect((await recent('?userId=recent-user&type=purchase')).body.data[0]).toMatchObject({
      type: 'purchase',
      subjectType: 'user',
      subjectId: 'recent-user',
      data: { amount: 5 },
      receivedAt: expect.stringMatching(/Z$/),
    });
    const limited = (await recent('?userId=recent-user&limit=2')).body.data;
    expect(limited.map((event: { type: string }) => event.type)).toEqual(['purchase', 'tap']);
    const all = (await recent('?limit=500')).body.data;
    const times = all.map((event: { receivedAt: string }) => event.receivedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect((await recent('?limit=501')).status).toBe(400);
    expect((await recent('?limit=0')).status).toBe(400);
  });

  it('pages through every event with before, the id of the last one seen, skipping none', async () => {
    await registerDevice('paged-phone', 'paged-user');
    // Events of one request share their receivedAt: pages must hold a millisecond whole or pass it on.
    await report(['a', 'b', 'c'].map((type) => userEvent(type, 'paged-user')));
    await report(['d', 'e'].map((type) => ({ type, subjectType: 'device', subjectId: 'paged-phone' })));
    await report([userEvent('f', 'paged-user')]);
    const all = (await eventsStored('?userId=paged-user&limit=500', 7)).map((event) => event.id);
    const paged: string[] = [];
    for (let before = ''; ; ) {
      const page = (await recent(`?userId=paged-user&limit=2${before}`)).body.data as Array<{ id: string }>;
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(2);
      paged.push(...page.map((event) => event.id));
      before = `&before=${page.at(-1)!.id}`;
    }
    expect(paged).toEqual(all);
    const unknown = await recent('?before=2026-01-01T00:00:00Z&limit=0');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { path: '/query/limit', message: expect.any(String) },
      { path: '/query/before', message: 'must be the id of an event of this project' },
    ]);
  });

  it('serves each filter combination from an index', async () => {
    const filters = [
      {},
      { type: 't' },
      { subjectType: 'user', subjectId: 'u' },
      { subjectType: 'user', subjectId: 'u', type: 't' },
    ];
    const indexes = await workers.context.models.Event.collection.indexes();
    const keys = indexes.map((index) => Object.keys(index.key).join(','));
    for (const filter of filters) {
      expect(keys, JSON.stringify(filter)).toContain(
        ['projectId', ...Object.keys(filter), 'receivedAt', '_id'].join(','),
      );
    }
  });
});
