import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { waitFor } from '../support/eventually.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';
import { ingestEvents } from '../../src/events/ingest-events.ts';
import { EventTypeCatalog } from '../../src/events/event-type-catalog.ts';
import { dayMs, startOfUtcDay } from '../../src/infra/utc-day.ts';
import { countField } from '../../src/events/pending-counts.ts';
import { firstSessionEvent } from '../../src/schemas/automatic-events.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';

const {
  config,
  ingress,
  workers,
  projects: { tagsProject, eventsProject, countsProject },
} = useIngress({
  workers: ['event-ingest'],
  projects: { tagsProject: 'team', eventsProject: 'team', countsProject: 'team' },
});

const t0 = 1_700_000_000_000;

beforeAll(async () => {
  await registerDevices(ingress, tagsProject, [
    { id: 'd1', platform: 'android', token: 'tok-d1', tags: { plan: 'pro', score: 10, seenAt: t0 } },
    { id: 'd2', platform: 'ios', token: 'tok-d2', tags: { plan: 'free', score: 5, seenAt: t0 + 1000 } },
    { id: 'd3', platform: 'web', token: 'tok-d3', tags: { plan: 'basic', score: 20 } },
    { id: 'd4', platform: 'android', token: 'tok-d4' },
    { id: 'd5', platform: 'android', token: 'tok-d5', tags: { plan: 'pro', score: 10, seenAt: t0 } },
  ]);
  await ingress.context.models.Device.updateOne(
    { projectId: tagsProject.projectId, deviceId: 'd5' },
    { $set: { isSubscribed: false } },
  );
});

const path = (project: CreatedProject, rest = '') => `/v1/projects/${project.projectId}/segments${rest}`;

async function createSegment(project: CreatedProject, body: object): Promise<string> {
  const response = await ingress.request('POST', path(project), { key: project.apiKey, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id;
}

async function preview(
  project: CreatedProject,
  conditions: object[],
  match: 'all' | 'any' = 'all',
): Promise<{ count: number; sample: string[] }> {
  const id = await createSegment(project, { name: 'probe', match, conditions });
  const response = await ingress.request('GET', path(project, `/${id}/preview`), { key: project.apiKey });
  expect(response.status).toBe(200);
  return response.body.data;
}

async function matching(
  project: CreatedProject,
  conditions: object[],
  match: 'all' | 'any' = 'all',
): Promise<string[]> {
  const { count, sample } = await preview(project, conditions, match);
  expect(sample).toHaveLength(count);
  return sample;
}

describe('segments API (CONTRACTS §7)', () => {
  it('creates, lists, reads, replaces and deletes a segment', async () => {
    const definition = { name: 'Pro users', match: 'all', conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }] };
    const id = await createSegment(tagsProject, definition);
    const read = await ingress.request('GET', path(tagsProject, `/${id}`), { key: tagsProject.apiKey });
    expect(read.body.data).toEqual({ id, ...definition, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const list = await ingress.request('GET', path(tagsProject), { key: tagsProject.apiKey });
    expect(list.body.data.map((segment: { id: string }) => segment.id)).toContain(id);

    const replacement = {
      name: 'Buyers',
      match: 'any',
      conditions: [
        {
          event: 'purchase',
          withinDays: 30,
          count: { op: 'gte', value: 2 },
          where: [{ field: 'amount', op: 'gte', value: 100 }],
        },
      ],
    };
    const replaced = await ingress.request('PUT', path(tagsProject, `/${id}`), {
      key: tagsProject.apiKey,
      body: replacement,
    });
    expect(replaced.body.data).toMatchObject({ id, ...replacement });

    expect(
      (await ingress.request('DELETE', path(tagsProject, `/${id}`), { key: tagsProject.apiKey })).body.data,
    ).toEqual({ id, deleted: true });
    for (const [method, rest] of [
      ['GET', `/${id}`],
      ['PUT', `/${id}`],
      ['DELETE', `/${id}`],
      ['GET', `/${id}/preview`],
    ] as const) {
      const response = await ingress.request(method, path(tagsProject, rest), {
        key: tagsProject.apiKey,
        body: method === 'PUT' ? definition : undefined,
      });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    const send = await ingress.request('POST', `/v1/projects/${tagsProject.projectId}/notifications`, {
      key: tagsProject.apiKey,
      body: { targetType: 'segment', targetIds: [id], body: 'x' },
    });
    expect(send.status).toBe(404);
  });

  it('answers 400 naming each malformed condition', async () => {
    const response = await ingress.request('POST', path(tagsProject), {
      key: tagsProject.apiKey,
      body: {
        name: 'broken',
        match: 'all',
        conditions: [
          { tag: 'plan', op: 'eq' },
          { tag: 'a.b', op: 'exists' },
          { tag: 'plan', op: 'like', value: 'p' },
          { tag: 'plan', op: 'in', value: 'pro' },
          { tag: 'plan', op: 'gt', value: true },
          { event: 'purchase', withinDays: 0, count: { op: 'gte', value: 1 } },
          {
            event: 'purchase',
            withinDays: 7,
            count: { op: 'gte', value: 1 },
            where: [{ field: 'amount', op: 'in', value: 3 }],
          },
          { tag: 'plan', event: 'purchase' },
          { event: 'purchase', withinDays: 7, count: { op: 'most', value: 1 } },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    const paths = response.body.error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/conditions/0/value',
        '/conditions/1/tag',
        '/conditions/2/op',
        '/conditions/3/value',
        '/conditions/4/value',
        '/conditions/5/withinDays',
        '/conditions/6/where/0/value',
        '/conditions/7',
        '/conditions/8/count/op',
      ]),
    );
    const badMatch = await ingress.request('POST', path(tagsProject), {
      key: tagsProject.apiKey,
      body: { name: 'x', match: 'some', conditions: [] },
    });
    expect(badMatch.body.error.details).toEqual([{ path: '/match', message: 'must be all or any' }]);
  });

  it('takes any tag value a device may hold: 1024 characters as the device API counts them, emoji as one each', async () => {
    const longest = '😀'.repeat(1024);
    const moods = await ingress.createProject('team');
    await registerDevices(ingress, moods, [
      { id: 'emoji-mood', platform: 'android', token: 'tok-emoji-mood', tags: { mood: longest } },
    ]);
    expect(await matching(moods, [{ tag: 'mood', op: 'eq', value: longest }])).toEqual(['emoji-mood']);
    const tooLong = await ingress.request('POST', path(moods), {
      key: moods.apiKey,
      body: { name: 'x', match: 'all', conditions: [{ tag: 'mood', op: 'in', value: [`${longest}😀`] }] },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['/conditions/0/value']);
  });

  it('matches on tag keys with inner spaces and on keys edged with whitespace (CONTRACTS §4 allows both)', async () => {
    const project = await ingress.createProject('team');
    await registerDevices(ingress, project, [
      { id: 'spaced', platform: 'web', token: 'tok-spaced', tags: { 'first name': 'Ada', ' edged ': 'yes' } },
    ]);
    expect(await matching(project, [{ tag: 'first name', op: 'eq', value: 'Ada' }])).toEqual(['spaced']);
    const edged = {
      name: 'edged',
      match: 'all',
      conditions: [
        { tag: ' edged ', op: 'eq', value: 'yes' },
        {
          event: 'visit',
          withinDays: 7,
          count: { op: 'gte', value: 1 },
          where: [{ field: 'page ', op: 'eq', value: '/' }],
        },
      ],
    };
    const response = await ingress.request('POST', path(project), { key: project.apiKey, body: edged });
    expect(response.status).toBe(200);
    expect(await matching(project, [edged.conditions[0]!])).toEqual(['spaced']);
  });
});

describe('tag conditions: one query on devices, subscribed devices only', () => {
  const cases: Array<[string, string, unknown, string[]]> = [
    // strings
    ['plan', 'eq', 'pro', ['d1']],
    ['plan', 'ne', 'pro', ['d2', 'd3', 'd4']],
    ['plan', 'gt', 'basic', ['d1', 'd2']],
    ['plan', 'gte', 'basic', ['d1', 'd2', 'd3']],
    ['plan', 'lt', 'free', ['d3']],
    ['plan', 'lte', 'free', ['d2', 'd3']],
    ['plan', 'in', ['pro', 'basic'], ['d1', 'd3']],
    ['plan', 'nin', ['pro'], ['d2', 'd3', 'd4']],
    ['plan', 'exists', undefined, ['d1', 'd2', 'd3']],
    ['plan', 'notExists', undefined, ['d4']],
    // numbers
    ['score', 'eq', 10, ['d1']],
    ['score', 'ne', 10, ['d2', 'd3', 'd4']],
    ['score', 'gt', 5, ['d1', 'd3']],
    ['score', 'gte', 10, ['d1', 'd3']],
    ['score', 'lt', 10, ['d2']],
    ['score', 'lte', 10, ['d1', 'd2']],
    ['score', 'in', [5, 20], ['d2', 'd3']],
    ['score', 'nin', [5], ['d1', 'd3', 'd4']],
    ['score', 'exists', undefined, ['d1', 'd2', 'd3']],
    ['score', 'notExists', undefined, ['d4']],
    // times (Unix milliseconds)
    ['seenAt', 'eq', t0, ['d1']],
    ['seenAt', 'ne', t0, ['d2', 'd3', 'd4']],
    ['seenAt', 'gt', t0, ['d2']],
    ['seenAt', 'gte', t0, ['d1', 'd2']],
    ['seenAt', 'lt', t0 + 1000, ['d1']],
    ['seenAt', 'lte', t0 + 1000, ['d1', 'd2']],
    ['seenAt', 'in', [t0, t0 + 5], ['d1']],
    ['seenAt', 'nin', [t0], ['d2', 'd3', 'd4']],
    ['seenAt', 'exists', undefined, ['d1', 'd2']],
    ['seenAt', 'notExists', undefined, ['d3', 'd4']],
  ];
  it.each(cases)('%s %s %j', async (tag, op, value, expected) => {
    expect(await matching(tagsProject, [{ tag, op, ...(value !== undefined && { value }) }])).toEqual(expected);
  });

  it('compares numbers only with numbers and strings only with strings', async () => {
    expect(await matching(tagsProject, [{ tag: 'score', op: 'gt', value: '1' }])).toEqual([]);
    expect(await matching(tagsProject, [{ tag: 'plan', op: 'gt', value: 0 }])).toEqual([]);
  });

  it('combines conditions with all and any; no conditions is every subscribed device', async () => {
    expect(
      await matching(
        tagsProject,
        [
          { tag: 'plan', op: 'eq', value: 'pro' },
          { tag: 'score', op: 'gte', value: 10 },
        ],
        'all',
      ),
    ).toEqual(['d1']);
    expect(
      await matching(
        tagsProject,
        [
          { tag: 'plan', op: 'eq', value: 'pro' },
          { tag: 'score', op: 'gte', value: 20 },
        ],
        'all',
      ),
    ).toEqual([]);
    expect(
      await matching(
        tagsProject,
        [
          { tag: 'plan', op: 'eq', value: 'free' },
          { tag: 'score', op: 'gte', value: 20 },
        ],
        'any',
      ),
    ).toEqual(['d2', 'd3']);
    expect(await matching(tagsProject, [], 'all')).toEqual(['d1', 'd2', 'd3', 'd4']);
  });
});

const purchases = (withinDays: number, op: string, value: number, where?: object[]) => ({
  event: 'purchase',
  withinDays,
  count: { op, value },
  ...(where && { where }),
});

describe('event conditions: counts in a window, through the device or its user', () => {
  beforeAll(async () => {
    await registerDevices(ingress, eventsProject, [
      { id: 'e1', platform: 'android', token: 'tok-e1', userId: 'alice', tags: { vip: 'yes' } },
      { id: 'e2', platform: 'ios', token: 'tok-e2', userId: 'alice' },
      { id: 'e3', platform: 'web', token: 'tok-e3' },
      { id: 'e4', platform: 'android', token: 'tok-e4' },
    ]);
    const models = workers.context.models;
    const stored = () => models.Event.countDocuments({ projectId: eventsProject.projectId, type: 'purchase' });
    const response = await ingress.request('POST', `/v1/projects/${eventsProject.projectId}/events`, {
      key: eventsProject.apiKey,
      body: {
        events: [
          { type: 'purchase', subjectType: 'user', subjectId: 'alice', data: { amount: 150 } },
          { type: 'purchase', subjectType: 'device', subjectId: 'e1', data: { amount: 50 } },
        ],
      },
    });
    expect(response.body.data.success).toBe(2);
    await waitFor(stored, (count) => count === 2);
    // Earlier purchases of e3, ingested by the real ingest code as if received 20 and 3 days ago.
    const deps = { ...workers.context, catalog: new EventTypeCatalog(models) };
    for (const [daysAgo, amount] of [
      [20, 500],
      [3, 20],
    ] as const) {
      const receivedAt = new Date(Date.now() - daysAgo * dayMs).toISOString();
      await ingestEvents(
        deps,
        `backdated-${daysAgo}`,
        {
          projectId: eventsProject.projectId,
          receivedAt,
          events: [{ type: 'purchase', subjectType: 'device', subjectId: 'e3', data: { amount } }],
        },
        async () => undefined,
      );
    }
  });

  it('counts the events inside the window only', async () => {
    expect(await matching(eventsProject, [purchases(30, 'gte', 2)])).toEqual(['e1', 'e3']);
    expect(await matching(eventsProject, [purchases(7, 'gte', 2)])).toEqual(['e1']);
    expect(await matching(eventsProject, [purchases(7, 'gte', 1)])).toEqual(['e1', 'e2', 'e3']);
    expect(await matching(eventsProject, [purchases(2, 'gte', 1)])).toEqual(['e1', 'e2']);
    expect(await matching(eventsProject, [purchases(30, 'eq', 2)])).toEqual(['e1', 'e3']);
    expect(await matching(eventsProject, [purchases(7, 'eq', 1)])).toEqual(['e2', 'e3']);
  });

  it('matches devices with no events when the count condition holds for 0', async () => {
    expect(await matching(eventsProject, [purchases(30, 'lt', 2)])).toEqual(['e2', 'e4']);
    expect(await matching(eventsProject, [purchases(7, 'eq', 0)])).toEqual(['e4']);
    expect(await matching(eventsProject, [purchases(7, 'lte', 1)])).toEqual(['e2', 'e3', 'e4']);
    expect(await matching(eventsProject, [purchases(7, 'ne', 2)])).toEqual(['e2', 'e3', 'e4']);
  });

  it("counts only events whose data matches where, and a user's events on each of the user's devices, not one device's on another", async () => {
    expect(
      await matching(eventsProject, [purchases(30, 'gte', 1, [{ field: 'amount', op: 'gte', value: 100 }])]),
    ).toEqual(['e1', 'e2', 'e3']);
    expect(
      await matching(eventsProject, [purchases(7, 'gte', 1, [{ field: 'amount', op: 'gte', value: 100 }])]),
    ).toEqual(['e1', 'e2']);
    // The purchase of 150 was reported for alice, so both her devices count it; the purchase of 50 was reported for
    // e1 only, so her other device e2 does not.
    expect(
      await matching(eventsProject, [purchases(30, 'gte', 1, [{ field: 'amount', op: 'lt', value: 100 }])]),
    ).toEqual(['e1', 'e3']);
    expect(
      await matching(eventsProject, [purchases(30, 'gte', 1, [{ field: 'amount', op: 'gt', value: 400 }])]),
    ).toEqual(['e3']);
    expect(
      await matching(eventsProject, [purchases(30, 'eq', 0, [{ field: 'amount', op: 'gt', value: 400 }])]),
    ).toEqual(['e1', 'e2', 'e4']);
  });

  it('compares times in a data array as times, like a time on its own', async () => {
    const response = await ingress.request('POST', `/v1/projects/${eventsProject.projectId}/events`, {
      key: eventsProject.apiKey,
      body: {
        events: [
          {
            type: 'visit',
            subjectType: 'device',
            subjectId: 'e4',
            data: { days: ['2024-04-19T14:23:56+09:00', '2024-05-01T00:00:00Z'], day: '2024-04-19T14:23:56+09:00' },
          },
        ],
      },
    });
    expect(response.body.data.success).toBe(1);
    const visits = () =>
      workers.context.models.Event.countDocuments({ projectId: eventsProject.projectId, type: 'visit' });
    await waitFor(visits, (count) => count === 1);
    const visited = (field: string, op: string, value: unknown) => ({
      event: 'visit',
      withinDays: 1,
      count: { op: 'gte', value: 1 },
      where: [{ field, op, value }],
    });
    for (const field of ['days', 'day']) {
      expect(await matching(eventsProject, [visited(field, 'eq', '2024-04-19T05:23:56Z')]), field).toEqual(['e4']);
      expect(await matching(eventsProject, [visited(field, 'in', ['2024-04-19T05:23:56.000Z'])]), field).toEqual([
        'e4',
      ]);
      expect(await matching(eventsProject, [visited(field, 'lt', '2024-04-20T00:00:00Z')]), field).toEqual(['e4']);
    }
    expect(await matching(eventsProject, [visited('days', 'gt', '2024-04-30T00:00:00+00:00')])).toEqual(['e4']);
    expect(await matching(eventsProject, [visited('day', 'gt', '2024-04-30T00:00:00+00:00')])).toEqual([]);
  });

  it('mixes tag and event conditions under all and any', async () => {
    expect(
      await matching(eventsProject, [{ tag: 'vip', op: 'eq', value: 'yes' }, purchases(30, 'gte', 2)], 'all'),
    ).toEqual(['e1']);
    expect(
      await matching(
        eventsProject,
        [{ tag: 'vip', op: 'eq', value: 'yes' }, purchases(30, 'gte', 1, [{ field: 'amount', op: 'gt', value: 400 }])],
        'any',
      ),
    ).toEqual(['e1', 'e3']);
    expect(await matching(eventsProject, [{ tag: 'vip', op: 'notExists' }, purchases(7, 'lt', 1)], 'all')).toEqual([
      'e4',
    ]);
  });
});

describe('event conditions and the daily counters waiting in Redis', () => {
  it("leaves today's counts in Redis, which no segment reads from the counters, and flushes a finished day's first", async () => {
    await registerDevices(ingress, countsProject, [{ id: 'c1', platform: 'android', token: 'tok-c1' }]);
    const { models, redis } = workers.context;
    const names = redisKeys.eventCounts(config.queuePrefix, countsProject.projectId);
    // The registration's @first_session is the project's first event, so its job flushes at once and starts the
    // minute until the next flush; the flush is done once its counter document is in MongoDB.
    await waitFor(
      () => models.EventCounter.countDocuments({ projectId: countsProject.projectId, type: firstSessionEvent }),
      (counters) => counters === 1,
    );
    await redis.set(names.flushGate, '1', 'PX', 60_000);
    const purchaseField = (daysAgo: number) =>
      countField({
        subjectType: 'device',
        subjectId: 'c1',
        type: 'purchase',
        day: startOfUtcDay(new Date(Date.now() - daysAgo * dayMs)).getTime(),
      });
    const purchasePending = async () => Number(await redis.hget(names.pending, purchaseField(0)));
    const deps = { ...workers.context, catalog: new EventTypeCatalog(models) };
    const purchase = (jobId: string, receivedAt: Date) =>
      ingestEvents(
        deps,
        jobId,
        {
          projectId: countsProject.projectId,
          receivedAt: receivedAt.toISOString(),
          events: [{ type: 'purchase', subjectType: 'device', subjectId: 'c1', data: {} }],
        },
        async () => undefined,
      );
    const purchaseCounters = () =>
      models.EventCounter.countDocuments({ projectId: countsProject.projectId, type: 'purchase' });

    await purchase('counts-today', new Date());
    expect(await matching(countsProject, [purchases(7, 'gte', 1)])).toEqual(['c1']);
    expect(await purchasePending()).toBe(1);
    expect(await purchaseCounters()).toBe(0);

    await purchase('counts-3-days-ago', new Date(Date.now() - 3 * dayMs));
    expect(await matching(countsProject, [purchases(7, 'gte', 2)])).toEqual(['c1']);
    expect(await purchasePending()).toBe(0);
    expect(await purchaseCounters()).toBe(2);

    // Counts left by a version that kept no oldest day are taken to hold a finished one.
    await redis.hset(names.pending, purchaseField(2), 1);
    expect(await matching(countsProject, [purchases(7, 'gte', 3)])).toEqual(['c1']);
  });
});
