import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

/**
 * What an id may be (CONTRACTS §3): `.` and `..` are no device ids, since every client removes them from a URL as dot
 * segments (%2e too) and no path could reach such a device again; an id of only spaces is no id anywhere one is
 * taken; NUL is refused in ids, in event types and in message content. Each is a 400 naming the field, and nothing
 * is written.
 */
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const sdk = (suffix: string) => `/v1/sdk/projects/${project.projectId}${suffix}`;
const server = (suffix: string) => `/v1/projects/${project.projectId}${suffix}`;
const android = (token: string, extra: object = {}) => ({ platform: 'android', pushToken: token, ...extra });

interface Answer {
  status: number;
  body: any;
}

/** The path sent as it is: fetch, like a browser, would remove its dot segments. */
function rawRequest(method: string, path: string, key: string, body?: unknown): Promise<Answer> {
  const { port } = new URL(ingress.baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${key}` } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += String(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    if (body !== undefined) {
      request.setHeader('content-type', 'application/json');
      request.end(JSON.stringify(body));
    } else request.end();
  });
}

const api = (method: string, path: string, body?: unknown) =>
  ingress.request(method, server(path), { key: project.apiKey, body });
const client = (method: string, path: string, body?: unknown) =>
  ingress.request(method, sdk(path), { key: project.clientKey, body });

function expectRefused(response: Answer, ...paths: string[]): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('invalid_request');
  const named = response.body.error.details.map((detail: { path: string }) => detail.path);
  for (const path of paths) expect(named).toContain(path);
}

async function expectNoDevice(deviceId: string): Promise<void> {
  const listed = await api('GET', '/devices?limit=500');
  expect(listed.body.data.map((device: { id: string }) => device.id)).not.toContain(deviceId);
}

describe('device ids . and ..', () => {
  it.each(['.', '..', '%2e', '%2E%2e'])(
    'are refused in every device path as %s, naming /path/deviceId (they registered a device no path could reach)',
    async (segment) => {
      const decoded = decodeURIComponent(segment);
      expectRefused(
        await rawRequest('PUT', sdk(`/devices/${segment}`), project.clientKey, android('dot')),
        '/path/deviceId',
      );
      expectRefused(
        await rawRequest('PATCH', sdk(`/devices/${segment}`), project.clientKey, { tags: {} }),
        '/path/deviceId',
      );
      expectRefused(
        await rawRequest('POST', sdk(`/devices/${segment}/events`), project.clientKey, { type: 'x' }),
        '/path/deviceId',
      );
      for (const [method, suffix] of [
        ['GET', ''],
        ['DELETE', ''],
        ['GET', '/subscription'],
        ['GET', '/notification-history'],
      ] as const)
        expectRefused(
          await rawRequest(method, server(`/devices/${segment}${suffix}`), project.apiKey),
          '/path/deviceId',
        );
      await expectNoDevice(decoded);
    },
  );

  it('are refused as targetIds of a device send, as a preview device, as a list cursor and as a device subject of an event', async () => {
    expectRefused(
      await api('POST', '/notifications', { targetType: 'device', targetIds: ['ok', '.', '..'], body: 'b' }),
      '/targetIds/1',
      '/targetIds/2',
    );
    expectRefused(await api('POST', '/notifications/preview', { deviceId: '..', body: 'b' }), '/deviceId');
    expectRefused(await api('GET', '/devices?after=..'), '/query/after');
    const events = await api('POST', '/events', {
      events: [
        { type: 'dot', subjectType: 'device', subjectId: '..' },
        { type: 'dot', subjectType: 'device', subjectId: '.' },
        { type: 'dot', subjectType: 'device', subjectId: 'a.b' },
        { type: 'dot', subjectType: 'user', subjectId: '..' },
      ],
    });
    expect(events.status).toBe(200);
    expect(events.body.data.success).toBe(2);
    expect(events.body.data.error).toEqual([
      { index: 0, code: 'invalid_subject', message: expect.stringContaining('subjectId') },
      { index: 1, code: 'invalid_subject', message: expect.stringContaining('subjectId') },
    ]);
  });

  it('other ids of dots stay ids', async () => {
    for (const id of ['...', '.a', 'a.', 'a..b']) {
      const response = await client('PUT', `/devices/${id}`, android(`dots-${id}`));
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data.id).toBe(id);
    }
  });
});

describe('ids of only spaces, and NUL in ids', () => {
  it.each([
    ['only spaces', '   '],
    ['a tab and a line break', '\t\n'],
    ['a NUL', 'ada\u0000'],
  ])('refuses a userId of %s wherever a user id is taken', async (_name, userId) => {
    expectRefused(await client('PUT', '/devices/user-edge', android('user-edge', { userId })), '/userId');
    expect((await client('PUT', '/devices/user-edge', android('user-edge'))).status).toBe(200);
    expectRefused(await client('PATCH', '/devices/user-edge', { userId }), '/userId');
    expect((await api('GET', '/devices/user-edge')).body.data.userId).toBeNull();
    expectRefused(await api('PATCH', '/users/tags', { userId, tags: { a: 'b' } }), '/userId');
    expectRefused(
      await api('POST', '/notifications', { targetType: 'userId', targetIds: ['ada', userId], body: 'b' }),
      '/targetIds/1',
    );
    expectRefused(
      await api('POST', '/notifications', { targetType: 'segment', targetIds: [userId], body: 'b' }),
      '/targetIds/0',
    );
    expectRefused(await api('GET', `/devices?userId=${encodeURIComponent(userId)}`), '/query/userId');
    const events = await api('POST', '/events', { events: [{ type: 'edge', subjectType: 'user', subjectId: userId }] });
    expect(events.body.data).toEqual({
      success: 0,
      error: [{ index: 0, code: 'invalid_subject', message: expect.stringContaining('subjectId') }],
    });
  });

  it('keeps ids with spaces around or inside other characters', async () => {
    const response = await client('PUT', '/devices/user-spaced', android('user-spaced', { userId: ' Ada Lovelace ' }));
    expect(response.status).toBe(200);
    expect(response.body.data.userId).toBe(' Ada Lovelace ');
  });
});

describe('NUL in event types and message content', () => {
  it('refuses an event type holding NUL, from the server API, the SDK, the catalog and a journey trigger', async () => {
    expect((await client('PUT', '/devices/nul-events', android('nul-events'))).status).toBe(200);
    const events = await api('POST', '/events', {
      events: [{ type: 'a\u0000b', subjectType: 'user', subjectId: 'u' }],
    });
    expect(events.body.data.error).toEqual([
      { index: 0, code: 'invalid_type', message: expect.stringContaining('NUL') },
    ]);
    expectRefused(await client('POST', '/devices/nul-events/events', { type: 'a\u0000b' }), '/type');
    expectRefused(await api('POST', '/event-types', { type: 'a\u0000b' }), '/type');
    expectRefused(
      await api('POST', '/journeys', { name: 'n', trigger: { event: 'a\u0000b' }, body: 'b' }),
      '/trigger/event',
    );
  });

  const content = {
    title: 't\u0000',
    body: 'b\u0000',
    url: 'https://x.example/\u0000',
    imageUrl: 'https://x.example/i\u0000',
  };
  const fields = ['/title', '/body', '/url', '/imageUrl'];

  it('refuses NUL in the title, body, url and imageUrl of a send, a preview, a template and a journey', async () => {
    expectRefused(
      await api('POST', '/notifications', { targetType: 'userId', targetIds: ['u'], ...content }),
      ...fields,
    );
    expectRefused(await api('POST', '/notifications/preview', content), ...fields);
    expectRefused(await api('POST', '/templates', { name: 'nul', ...content }), ...fields);
    expectRefused(await api('POST', '/journeys', { name: 'nul', trigger: { event: 'e' }, ...content }), ...fields);
    const templates = await api('GET', '/templates');
    expect(templates.body.data).toEqual([]);
    const journeys = await api('GET', '/journeys');
    expect(journeys.body.data).toEqual([]);
  });
});
