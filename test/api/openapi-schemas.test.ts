import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { requestFormats } from '../../src/schemas/request-formats.ts';
import { useIngress } from '../support/ingress.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const trackEventPath = '/v1/sdk/projects/{projectId}/devices/{deviceId}/events';

/** The request body schema /openapi.json publishes for an operation, compiled as a client generating requests would. */
async function publishedBodySchema(path: string, method: string) {
  const document = (await ingress.request('GET', '/openapi.json')).body;
  const ajv = new Ajv({ strict: false });
  addFormats.default(ajv);
  for (const [name, format] of Object.entries(requestFormats)) ajv.addFormat(name, format);
  return ajv.compile(document.paths[path][method].requestBody.content['application/json'].schema);
}

describe('the OpenAPI document', () => {
  it("describes trackEvent's body as the route checks it: what the schema allows is taken, what it refuses is a 400", async () => {
    const deviceId = 'openapi-device';
    const registered = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`, {
      key: project.clientKey,
      body: { platform: 'android', pushToken: 'openapi-token' },
    });
    expect(registered.status).toBe(200);
    const allows = await publishedBodySchema(trackEventPath, 'post');
    const bodies: Array<[object, 'taken' | 'refused']> = [
      [{ type: 'viewed' }, 'taken'],
      [{ type: '@clicked', data: { notificationId: 'n-1' } }, 'taken'],
      [
        {
          type: ' x',
          data: { at: '2024-04-19T05:23:56Z', n: 1.5, yes: true, none: null, tags: ['a'], scores: [1, 2] },
        },
        'taken',
      ],
      [{ type: '@made_up' }, 'refused'],
      [{ type: '@first_session' }, 'refused'],
      [{ type: '   ' }, 'refused'],
      [{ type: 'x', data: null }, 'refused'],
      [{ type: 'x', data: [1] }, 'refused'],
      [{ type: 'x', data: { a: { b: 1 } } }, 'refused'],
      [{ type: 'x', data: { mixed: [1, 'a'] } }, 'refused'],
      [{ type: 'x', data: { long: Array.from({ length: 101 }, (_, index) => index) } }, 'refused'],
      [
        { type: 'x', data: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, index])) },
        'refused',
      ],
      [{ type: 'x', data: { 'a.b': 1 } }, 'refused'],
      [{ type: 'x', data: { $a: 1 } }, 'refused'],
      [{ type: 'x', data: { at: '0000-12-31T23:59:59Z' } }, 'refused'],
      [{ type: 'x', data: { days: ['2024-01-01T00:00:00Z', '0000-12-31T23:59:59Z'] } }, 'refused'],
    ];
    for (const [body, expected] of bodies) {
      const response = await ingress.request(
        'POST',
        `/v1/sdk/projects/${project.projectId}/devices/${deviceId}/events`,
        {
          key: project.clientKey,
          body,
        },
      );
      const label = JSON.stringify(body).slice(0, 120);
      expect(allows(body) ? 'taken' : 'refused', `the schema on ${label}`).toBe(expected);
      expect(response.status === 200 ? 'taken' : 'refused', `the route on ${label}: ${response.status}`).toBe(expected);
    }
  });
});
