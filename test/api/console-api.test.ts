import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';
import { listNotificationsQuery } from '../../src/notifications/list-notifications.ts';
import { listDevicesQuery } from '../../src/devices/list-devices.ts';

const adminToken = 'console-api-admin-token';
const {
  ingress,
  projects: { project, other, limited },
} = useIngress({
  config: testConfig({ adminToken }),
  projects: { project: 'team', other: 'team', limited: 'starter' },
});

const path = (suffix = '') => `/v1/projects/${project.projectId}${suffix}`;
const get = (url: string, key = project.apiKey) => ingress.request('GET', url, { key });

function expectError(response: { status: number; body: any }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.message.length).toBeGreaterThan(10);
}

const notificationIds: string[] = [];

beforeAll(async () => {
  const devices = [
    { id: 'alice-phone', userId: 'alice', tags: { plan: 'pro', level: 3 } },
    { id: 'alice-tablet', userId: 'alice', tags: { plan: 'free', level: 3 } },
    { id: 'bob-phone', userId: 'bob', tags: { plan: 'pro', name: '<b>Bob</b>' } },
  ];
  for (const { id, ...fields } of devices) {
    const response = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${id}`, {
      key: project.clientKey,
      body: { platform: 'android', pushToken: `t-${id}`, ...fields },
    });
    expect(response.status).toBe(200);
  }
  await ingress.context.models.Device.updateOne(
    { projectId: project.projectId, deviceId: 'bob-phone' },
    {
      $set: {
        isSubscribed: false,
        unsubscribedAt: new Date('2026-01-02T03:04:05Z'),
        unsubscribeReason: 'Unregistered',
      },
    },
  );
  // Without workers the sends stay queued: the list reads what the send route stored.
  for (let index = 0; index < 5; index++) {
    const response = await ingress.request('POST', path('/notifications'), {
      key: project.apiKey,
      body: { targetType: 'device', targetIds: ['alice-phone'], body: `n${index}` },
    });
    expect(response.status).toBe(200);
    notificationIds.unshift(response.body.data.id);
  }
});

describe('GET /v1/projects', () => {
  it("answers a server key's own project, which tells a key holder its project id", async () => {
    const response = await ingress.request('GET', '/v1/projects', { key: project.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: project.projectId,
        name: 'test team',
        plan: 'team',
        createdAt: expect.any(String),
        rateLimit: { requestsPerMinute: null, used: null },
        defaultTimezone: 'UTC',
        quietHours: null,
        frequencyCap: null,
        conversions: [],
      },
    ]);
  });

  it('answers every project to ADMIN_TOKEN, paged in id order', async () => {
    const all = await ingress.request('GET', '/v1/projects', { key: adminToken });
    const ids = all.body.data.map((item: { id: string }) => item.id);
    expect(ids).toEqual([project.projectId, other.projectId, limited.projectId].sort());
    const second = await ingress.request('GET', `/v1/projects?limit=1&after=${ids[0]}`, { key: adminToken });
    expect(second.body.data.map((item: { id: string }) => item.id)).toEqual([ids[1]]);
  });

  it('refuses a client key, an unknown key and a bad page with the contract errors', async () => {
    expectError(await ingress.request('GET', '/v1/projects', { key: project.clientKey }), 403, 'forbidden');
    expectError(await ingress.request('GET', '/v1/projects', { key: 'sk_nope' }), 401, 'unauthorized');
    expectError(await ingress.request('GET', '/v1/projects'), 401, 'unauthorized');
    const bad = await ingress.request('GET', '/v1/projects?limit=0&color=red', { key: adminToken });
    expectError(bad, 400, 'invalid_request');
    expect(bad.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      '/query/color',
      '/query/limit',
    ]);
  });
});

describe('GET /v1/projects/{id}', () => {
  it('shows the plan limit and the use of the last minute', async () => {
    const key = limited.apiKey;
    await ingress.request('GET', `/v1/projects/${limited.projectId}/event-types`, { key });
    const response = await ingress.request('GET', `/v1/projects/${limited.projectId}`, { key });
    expect(response.body.data).toMatchObject({
      id: limited.projectId,
      plan: 'starter',
      rateLimit: { requestsPerMinute: 100, used: 2 },
    });
  });

  it('lets ADMIN_TOKEN use the server API of any project, and answers 404 for a project that does not exist', async () => {
    expect((await get(path('/devices/alice-phone'), adminToken)).body.data.id).toBe('alice-phone');
    expect((await get(`/v1/projects/${other.projectId}`, adminToken)).body.data.id).toBe(other.projectId);
    expectError(await get('/v1/projects/no-such-project', adminToken), 404, 'not_found');
  });

  it("keeps a server key out of another project's routes", async () => {
    for (const suffix of ['', '/notifications', '/devices?userId=alice', '/devices/alice-phone/subscription']) {
      expectError(await get(path(suffix), other.apiKey), 403, 'forbidden');
    }
    expectError(await ingress.request('POST', path('/keys/rotate'), { key: other.apiKey }), 403, 'forbidden');
  });
});

describe('GET /v1/projects/{id}/notifications', () => {
  it('lists newest first and pages with before', async () => {
    const first = await get(path('/notifications?limit=2'));
    expect(first.status).toBe(200);
    expect(first.body.data.map((item: { id: string }) => item.id)).toEqual(notificationIds.slice(0, 2));
    expect(first.body.data[0]).toMatchObject({
      status: 'queued',
      body: 'n4',
      stats: { targeted: 0, sent: 0, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 },
    });
    const before = encodeURIComponent(first.body.data[1].createdAt);
    const rest = await get(path(`/notifications?limit=10&before=${before}`));
    const seen = [...first.body.data, ...rest.body.data].map((item: { id: string }) => item.id);
    // Notifications created in the same millisecond as a page's last one are not repeated; none are invented.
    expect(new Set(seen).size).toBe(seen.length);
    expect(notificationIds).toEqual(expect.arrayContaining(seen));
    expect((await get(`/v1/projects/${other.projectId}/notifications`, other.apiKey)).body.data).toEqual([]);
  });

  it('pages through notifications created in the same millisecond, as a journey creates them, by the last id seen or its createdAt', async () => {
    const owner = await ingress.createProject('team');
    const createdAt = new Date();
    const created = Array.from({ length: 25 }, (_, index) => ({
      _id: `same-ms-${String(index).padStart(2, '0')}`,
      projectId: owner.projectId,
      status: 'queued',
      targetType: 'userId',
      targetIds: ['someone'],
      title: null,
      body: `same millisecond ${index}`,
      url: null,
      imageUrl: null,
      stats: { targeted: 0 },
      createdAt,
      updatedAt: createdAt,
    }));
    await ingress.context.models.Notification.insertMany(created, { lean: true });
    const listPath = `/v1/projects/${owner.projectId}/notifications?limit=10`;
    const seen: string[] = [];
    for (let before = ''; ; ) {
      const page = await get(`${listPath}${before}`, owner.apiKey);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.data.map((item: { id: string }) => item.id));
      if (page.body.data.length < 10) break;
      before = `&before=${encodeURIComponent(page.body.data.at(-1).id)}`;
    }
    expect(seen).toEqual(created.map((notification) => notification._id).reverse());
    // A page holds its last millisecond whole, so paging by the createdAt of the last one seen skips none either.
    const byTime: string[] = [];
    for (let before = ''; ; ) {
      const page = await get(`${listPath}${before}`, owner.apiKey);
      byTime.push(...page.body.data.map((item: { id: string }) => item.id));
      if (page.body.data.length < 10) break;
      before = `&before=${encodeURIComponent(page.body.data.at(-1).createdAt)}`;
    }
    expect(byTime).toEqual(seen);
    const unknown = await get(`${listPath}&before=no-such-notification`, owner.apiKey);
    expectError(unknown, 400, 'invalid_request');
    expect(unknown.body.error.details[0].path).toBe('/query/before');
  });

  it('refuses a bad limit or before with 400 naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', '/query/limit'],
      ['limit=501', '/query/limit'],
      ['before=yesterday', '/query/before'],
      ['page=2', '/query/page'],
    ]) {
      const response = await get(path(`/notifications?${query}`));
      expectError(response, 400, 'invalid_request');
      expect(response.body.error.details[0].path).toBe(field);
    }
    // Both at once, on the notifications list and on a device's history: one 400 names both.
    for (const list of ['/notifications', '/devices/anyone/notification-history']) {
      const response = await get(path(`${list}?limit=0&before=nope`));
      expectError(response, 400, 'invalid_request');
      expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([
        '/query/limit',
        '/query/before',
      ]);
    }
  });

  it('is planned on the index {projectId, journeyStepId, createdAt, _id}', async () => {
    const plan = await listNotificationsQuery(ingress.context.models, project.projectId, {
      limit: 2,
      before: new Date(),
    }).explain('queryPlanner');
    // MongoDB 7/8 walk the index in its order; SecantusDB adds a top-k SORT stage over the same index range.
    const winning = JSON.stringify(
      (plan as unknown as { queryPlanner: { winningPlan: object } }).queryPlanner.winningPlan,
    );
    expect(winning).toMatch(
      /"stage":"IXSCAN","keyPattern":\{"projectId":1,"journeyStepId":1,"createdAt":-1,"_id":-1\}/,
    );
    expect(winning).not.toContain('COLLSCAN');
  });
});

describe('GET /v1/projects/{id}/devices', () => {
  const ids = (response: { body: any }) => response.body.data.map((device: { id: string }) => device.id);

  it('lists by userId, by tag and value (text or number) and by tag alone, in id order', async () => {
    expect(ids(await get(path('/devices?userId=alice')))).toEqual(['alice-phone', 'alice-tablet']);
    expect(ids(await get(path('/devices?tag=plan&value=pro')))).toEqual(['alice-phone', 'bob-phone']);
    expect(ids(await get(path('/devices?tag=level&value=3')))).toEqual(['alice-phone', 'alice-tablet']);
    expect(ids(await get(path('/devices?tag=name')))).toEqual(['bob-phone']);
    expect(ids(await get(path('/devices?userId=alice&tag=plan&value=free')))).toEqual(['alice-tablet']);
  });

  it('lists the devices whose id starts with a prefix, paged with after', async () => {
    expect(ids(await get(path('/devices?idPrefix=alice')))).toEqual(['alice-phone', 'alice-tablet']);
    expect(ids(await get(path('/devices?idPrefix=alice-t')))).toEqual(['alice-tablet']);
    expect(ids(await get(path('/devices?idPrefix=alice-phone')))).toEqual(['alice-phone']);
    expect(ids(await get(path('/devices?idPrefix=alice&limit=1&after=alice-phone')))).toEqual(['alice-tablet']);
    expect(ids(await get(path('/devices?idPrefix=alice&after=bob')))).toEqual([]);
    expect(ids(await get(path('/devices?idPrefix=carol')))).toEqual([]);
  });

  it('pages with after and shows the subscription state with its reason and time', async () => {
    const first = await get(path('/devices?limit=2'));
    expect(ids(first)).toEqual(['alice-phone', 'alice-tablet']);
    const second = await get(path('/devices?limit=2&after=alice-tablet'));
    expect(second.body.data).toEqual([
      {
        id: 'bob-phone',
        userId: 'bob',
        tags: { plan: 'pro', name: '<b>Bob</b>' },
        isSubscribed: false,
        platform: 'android',
        subscription: { isSubscribed: false, unsubscribedAt: '2026-01-02T03:04:05.000Z', reason: 'Unregistered' },
      },
    ]);
    expect((await get(path('/devices/alice-phone/subscription'))).body.data).toEqual({
      isSubscribed: true,
      unsubscribedAt: null,
      reason: null,
    });
    expectError(await get(path('/devices/nobody/subscription')), 404, 'not_found');
  });

  it('reads the devices of a user through the index {projectId, userId, platform}', async () => {
    const plan = await listDevicesQuery(ingress.context.models, project.projectId, {
      userId: 'alice',
      limit: 50,
    }).explain('queryPlanner');
    const winning = JSON.stringify(
      (plan as unknown as { queryPlanner: { winningPlan: object } }).queryPlanner.winningPlan,
    );
    expect(winning).toMatch(/"stage":"IXSCAN","keyPattern":\{"projectId":1,"userId":1,"platform":1\}/);
  });

  it('refuses bad filters with 400', async () => {
    for (const [query, field] of [
      ['value=pro', '/query'],
      ['tag=%24set', '/query/tag'],
      ['limit=501', '/query/limit'],
      ['after=a%20b', '/query/after'],
      ['idPrefix=a%20b', '/query/idPrefix'],
    ]) {
      const response = await get(path(`/devices?${query}`));
      expectError(response, 400, 'invalid_request');
      expect(response.body.error.details[0].path).toBe(field);
    }
  });
});

describe('POST /v1/projects/{id}/notifications/preview', () => {
  it('renders the inline content or a template for one device', async () => {
    const inline = await ingress.request('POST', path('/notifications/preview'), {
      key: project.apiKey,
      body: {
        deviceId: 'alice-phone',
        title: 'Hi {{ device.userId }}',
        body: '{{ device.tags.plan }} {{ data.x | default: "none" }}',
        data: { x: 7 },
      },
    });
    expect(inline.body.data).toEqual({ title: 'Hi alice', body: 'pro 7', url: null, imageUrl: null });
    const template = await ingress.request('POST', path('/templates'), {
      key: project.apiKey,
      body: { name: 't', body: 'Level {{ device.tags.level }}' },
    });
    const rendered = await ingress.request('POST', path('/notifications/preview'), {
      key: project.apiKey,
      body: { deviceId: 'alice-tablet', templateId: template.body.data.id },
    });
    expect(rendered.body.data.body).toBe('Level 3');
    const noDevice = await ingress.request('POST', path('/notifications/preview'), {
      key: project.apiKey,
      body: { body: '[{{ device.tags.plan }}]' },
    });
    expect(noDevice.body.data.body).toBe('[]');
  });

  it('says a body renders blank for the device, as its delivery would fail, where it previewed an empty push', async () => {
    const blank = await ingress.request('POST', path('/notifications/preview'), {
      key: project.apiKey,
      body: { deviceId: 'alice-phone', title: 'Hi', body: '{{ data.missing }}' },
    });
    expectError(blank, 400, 'invalid_request');
    expect(blank.body.error.details).toEqual([
      { path: '/body', message: "the body renders blank with this device's variables; give it a default" },
    ]);
  });

  it('names each field whose Liquid does not parse, and 404s an unknown device or template', async () => {
    const broken = await ingress.request('POST', path('/notifications/preview'), {
      key: project.apiKey,
      body: { title: '{{ x', body: '{% if %}' },
    });
    expectError(broken, 400, 'invalid_request');
    expect(broken.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['/title', '/body']);
    expectError(
      await ingress.request('POST', path('/notifications/preview'), {
        key: project.apiKey,
        body: { deviceId: 'nobody', body: 'x' },
      }),
      404,
      'not_found',
    );
    expectError(
      await ingress.request('POST', path('/notifications/preview'), {
        key: project.apiKey,
        body: { templateId: 'nope' },
      }),
      404,
      'not_found',
    );
    expectError(
      await ingress.request('POST', path('/notifications/preview'), { key: project.apiKey, body: {} }),
      400,
      'invalid_request',
    );
  });
});

describe('POST /v1/projects/{id}/segments/preview', () => {
  it('counts an unsaved definition and refuses a malformed condition naming it', async () => {
    const preview = await ingress.request('POST', path('/segments/preview'), {
      key: project.apiKey,
      body: { match: 'all', conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }] },
    });
    // bob-phone is unsubscribed.
    expect(preview.body.data).toEqual({ count: 1, sample: ['alice-phone'] });
    const bad = await ingress.request('POST', path('/segments/preview'), {
      key: project.apiKey,
      body: { match: 'all', conditions: [{ tag: 'plan', op: 'like' }] },
    });
    expectError(bad, 400, 'invalid_request');
    expect(bad.body.error.details[0].path).toBe('/conditions/0/op');
  });
});

describe('POST /v1/projects/{id}/keys/rotate', () => {
  it('answers the new keys once and revokes the old ones; ADMIN_TOKEN may rotate any project', async () => {
    const rotating = await ingress.createProject('team');
    const response = await ingress.request('POST', `/v1/projects/${rotating.projectId}/keys/rotate`, {
      key: rotating.apiKey,
    });
    expect(response.body.data).toEqual({
      projectId: rotating.projectId,
      apiKey: expect.any(String),
      clientKey: expect.any(String),
      plan: 'team',
    });
    expectError(await get(`/v1/projects/${rotating.projectId}`, rotating.apiKey), 401, 'unauthorized');
    expect((await get(`/v1/projects/${rotating.projectId}`, response.body.data.apiKey)).status).toBe(200);
    const byAdmin = await ingress.request('POST', `/v1/projects/${rotating.projectId}/keys/rotate`, {
      key: adminToken,
    });
    expectError(await get(`/v1/projects/${rotating.projectId}`, response.body.data.apiKey), 401, 'unauthorized');
    expect((await get(`/v1/projects/${rotating.projectId}`, byAdmin.body.data.apiKey)).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents every route the console uses', async () => {
    const document = (await ingress.request('GET', '/openapi.json')).body;
    for (const [route, method] of [
      ['/v1/projects', 'get'],
      ['/v1/projects/{projectId}', 'get'],
      ['/v1/projects/{projectId}/keys/rotate', 'post'],
      ['/v1/projects/{projectId}/notifications', 'get'],
      ['/v1/projects/{projectId}/notifications/preview', 'post'],
      ['/v1/projects/{projectId}/devices', 'get'],
      ['/v1/projects/{projectId}/devices/{deviceId}/subscription', 'get'],
      ['/v1/projects/{projectId}/segments/preview', 'post'],
    ] as const) {
      expect(document.paths[route]?.[method]?.summary, `${method} ${route}`).toEqual(expect.any(String));
    }
  });
});
