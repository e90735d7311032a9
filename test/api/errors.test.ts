import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const sdkDevice = (id = 'd1') => `/v1/sdk/projects/${project.projectId}/devices/${id}`;

/** Sends bytes as they are, with no client tidying the path or the headers, and reads the answer to its end. */
async function rawExchange(request: string): Promise<{ status: number; headers: string; body: unknown }> {
  const socket = connect(Number(new URL(ingress.baseUrl).port), '127.0.0.1');
  socket.end(request);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  const [head, body] = text.split('\r\n\r\n') as [string, string];
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('error responses (CONTRACTS §1)', () => {
  it('answers an unknown route with 404 not_found', async () => {
    const response = await ingress.request('GET', '/v2/whatever');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'not_found', message: expect.stringContaining('/v2/whatever') } });
  });

  it('answers an unknown device with 404 not_found', async () => {
    const response = await ingress.request('GET', `/v1/projects/${project.projectId}/devices/missing`, {
      key: project.apiKey,
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const body = JSON.stringify({ platform: 'ios', pushToken: 'x'.repeat(1024 * 1024) });
    const response = await ingress.request('PUT', sdkDevice(), {
      key: project.clientKey,
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['application/xml']])(
    'answers a %s body with 415',
    async (type) => {
      const response = await ingress.request('PUT', sdkDevice(), {
        key: project.clientKey,
        rawBody: 'platform=ios',
        headers: { 'content-type': type },
      });
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    },
  );

  it('answers a path parameter over 256 characters or broken percent-encoding with 400 in the error format', async () => {
    const tooLong = await ingress.request('GET', `/v1/projects/${project.projectId}/journeys/${'x'.repeat(257)}`, {
      key: project.apiKey,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      error: {
        code: 'invalid_request',
        message: 'The URL is not valid; see details.',
        details: [{ path: '/path', message: 'a path parameter is longer than 256 characters' }],
      },
    });
    const badEncoding = await ingress.request('GET', sdkDevice('%E0%A4%A'), { key: project.clientKey });
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.body.error).toMatchObject({
      code: 'invalid_request',
      details: [{ path: '/path', message: 'a path segment is not valid percent-encoded UTF-8' }],
    });
  });

  it("answers requests Node's HTTP parser refuses in the error format, and closes their connections", async () => {
    const oversized = await rawExchange(
      `GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(oversized.status).toBe(431);
    expect(oversized.body).toEqual({
      error: {
        code: 'request_header_too_large',
        message: 'The request headers are larger than the server takes (16 KiB); send long values in the body.',
      },
    });
    const conflicting = await rawExchange(
      `POST ${sdkDevice()} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
    );
    expect(conflicting.status).toBe(400);
    expect(conflicting.body).toEqual({
      error: { code: 'invalid_request', message: 'The request is not valid HTTP/1.1.' },
    });
    expect(conflicting.headers).toContain('connection: close');
  });

  it('answers a 100 KB Idempotency-Key with 431 request_header_too_large (CONTRACTS §1)', async () => {
    const response = await ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
      headers: { 'idempotency-key': 'k'.repeat(100 * 1024) },
      body: { targetType: 'device', targetIds: ['d1'], body: 'hi' },
    });
    expect(response.status).toBe(431);
    expect(response.body.error.code).toBe('request_header_too_large');
  });

  it('answers 404 not_found for a path that climbs out of the console, and for /v1/projects/ with no project id', async () => {
    for (const path of ['/console/%2e%2e/package.json', '/console/.%2e/src/config.ts']) {
      const answer = await rawExchange(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ error: { code: 'not_found', message: 'There is nothing at this address.' } });
    }
    const noProject = await ingress.request('GET', '/v1/projects/', { key: project.apiKey });
    expect(noProject.status).toBe(404);
    expect(noProject.body.error).toEqual({ code: 'not_found', message: 'There is no route GET /v1/projects/.' });
    const noSdkProject = await ingress.request('PUT', '/v1/sdk/projects//devices/d1', {
      key: project.clientKey,
      body: { platform: 'android', pushToken: 't' },
    });
    expect(noSdkProject.status).toBe(404);
  });

  it('lets a web page read the SDK refusals answered before any SDK route matched: unknown routes, malformed paths', async () => {
    const origin = { origin: 'https://shop.example' };
    const unknown = await ingress.request('GET', `/v1/sdk/projects/${project.projectId}/nope`, { headers: origin });
    const malformed = await ingress.request('PUT', sdkDevice('%ZZ'), {
      key: project.clientKey,
      headers: origin,
      body: { platform: 'android', pushToken: 't' },
    });
    expect([unknown.status, malformed.status]).toEqual([404, 400]);
    for (const answer of [unknown, malformed]) expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const serverRoute = await ingress.request('GET', '/v1/nope', { headers: origin });
    expect(serverRoute.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const response = await ingress.request('PUT', sdkDevice(), {
      key: project.clientKey,
      rawBody: '{"platform":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
  });

  it('names every offending field of a schema error by its JSON pointer', async () => {
    const response = await ingress.request('PUT', sdkDevice('bad id!'), {
      key: project.clientKey,
      body: { platform: 'blackberry', userId: 5, extra: true },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    const paths = response.body.error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(expect.arrayContaining(['/path/deviceId']));
    const bodyResponse = await ingress.request('PUT', sdkDevice(), {
      key: project.clientKey,
      body: { platform: 'blackberry', userId: 5, extra: true },
    });
    const bodyPaths = bodyResponse.body.error.details.map((detail: { path: string }) => detail.path).sort();
    expect(bodyPaths).toEqual(['/extra', '/platform', '/pushToken', '/userId']);
  });

  it('names the fields checked past the schema (Liquid, condition values) beside the schema errors, on every resource', async () => {
    const api = (method: 'POST' | 'PUT', path: string, body: unknown) =>
      ingress.request(method, `/v1/projects/${project.projectId}${path}`, { key: project.apiKey, body });
    const pathsOf = (response: { status: number; body: any }) => {
      expect(response.status).toBe(400);
      return response.body.error.details.map((detail: { path: string }) => detail.path);
    };
    expect(pathsOf(await api('POST', '/templates', { name: 7, body: 'Hi {{ user' }))).toEqual(['/name', '/body']);
    const segment = {
      name: '',
      match: 'all',
      conditions: [
        5,
        { tag: 'plan', op: 'gt', value: true },
        {
          event: 'buy',
          withinDays: 7,
          count: { op: 'gte', value: 1 },
          where: [{ field: 'at', op: 'eq', value: '0000-01-01T00:00:00Z' }],
        },
        // A schema error and a value error in one condition: both are named.
        { tag: '$p', op: 'eq', value: { a: 1 } },
        {
          event: 'buy',
          withinDays: 0,
          count: { op: 'gte', value: 1 },
          where: [
            { field: 'a.b', op: 'eq', value: 1 },
            { field: 'x', op: 'gt', value: null },
          ],
        },
      ],
    };
    const segmentPaths = [
      '/name',
      '/conditions/0',
      '/conditions/1/value',
      '/conditions/2/where/0/value',
      '/conditions/3/tag',
      '/conditions/3/value',
      '/conditions/4/withinDays',
      '/conditions/4/where/0/field',
      '/conditions/4/where/1/value',
    ];
    expect(pathsOf(await api('POST', '/segments', segment))).toEqual(segmentPaths);
    expect(pathsOf(await api('PUT', '/segments/any', segment))).toEqual(segmentPaths);
    const { name: _, ...definition } = segment;
    expect(pathsOf(await api('POST', '/segments/preview', { ...definition, extra: 1 }))).toEqual([
      '/extra',
      ...segmentPaths.slice(1),
    ]);
    const journey = {
      name: 'j',
      trigger: { event: 'buy', where: [{ field: 'amount', op: 'in', value: 5 }, 'nonsense'] },
      title: '{{ unclosed',
      body: 'b',
      delaySeconds: -1,
    };
    expect(pathsOf(await api('POST', '/journeys', journey)).sort()).toEqual(
      ['/delaySeconds', '/title', '/trigger/where/0/value', '/trigger/where/1'].sort(),
    );
    for (const rawBody of ['[]', 'null', '"text"', '{"conditions":{"length":1}}', '{"trigger":[1]}'])
      for (const path of ['/templates', '/segments', '/segments/preview', '/journeys', '/notifications']) {
        const response = await ingress.request('POST', `/v1/projects/${project.projectId}${path}`, {
          key: project.apiKey,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status, `${path} ${rawBody}`).toBe(400);
      }
  });

  it('never answers 500 to hostile bodies', async () => {
    const bodies = [
      '[]',
      'null',
      '"text"',
      '1e999',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{}}}',
      '{"platform":"ios","pushToken":"t","tags":[]}',
      '\u0000',
    ];
    for (const rawBody of bodies) {
      const response = await ingress.request('PUT', sdkDevice(), {
        key: project.clientKey,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, rawBody).toBe(400);
      expect(response.body.error.code, rawBody).toBe('invalid_request');
    }
  });

  it('serves an OpenAPI 3 document generated from the request schemas', async () => {
    const response = await ingress.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/projects/{projectId}/devices/{deviceId}',
        '/v1/sdk/projects/{projectId}/devices/{deviceId}',
      ]),
    );
    const put = response.body.paths['/v1/sdk/projects/{projectId}/devices/{deviceId}'].put;
    expect(put.requestBody.content['application/json'].schema.properties.platform).toBeDefined();
  });

  it('documents the one error format for every 4xx and 503 of every operation, and defaulted parameters as optional', async () => {
    const document = (await ingress.request('GET', '/openapi.json')).body;
    expect(document.components.schemas.ErrorResponse.properties.error.required).toEqual(['code', 'message']);
    for (const operations of Object.values<Record<string, any>>(document.paths)) {
      for (const operation of Object.values(operations)) {
        expect(operation.responses['4XX'].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/ErrorResponse',
        });
        expect(operation.responses['503'].content['application/json'].schema).toBeDefined();
      }
    }
    const history = document.paths['/v1/projects/{projectId}/devices/{deviceId}/notification-history'].get;
    expect(history.parameters.find((parameter: { name: string }) => parameter.name === 'limit').required).toBe(false);
  });

  it('answers /healthz and /readyz', async () => {
    expect((await ingress.request('GET', '/healthz')).status).toBe(200);
    expect((await ingress.request('GET', '/readyz')).body.data).toEqual({
      status: 'ready',
      redis: 'up',
      mongodb: 'up',
    });
  });
});
