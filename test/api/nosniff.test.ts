import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useIngress, type RequestOptions } from '../support/ingress.ts';

/**
 * Every answer of the API carries X-Content-Type-Options: nosniff, so that no browser reads a JSON answer (which may
 * echo a customer's text) as HTML or script: successes, refusals, unknown routes and requests the router or Node's
 * HTTP parser refused before any route ran.
 */
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const server = (suffix: string) => `/v1/projects/${project.projectId}${suffix}`;
const sdk = (suffix: string) => `/v1/sdk/projects/${project.projectId}${suffix}`;

/** Sends the bytes as they are, with no client tidying them, and answers the status line and headers. */
async function rawHead(request: string): Promise<string> {
  const socket = connect(Number(new URL(ingress.baseUrl).port), '127.0.0.1');
  socket.end(request);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return text.split('\r\n\r\n')[0]!.toLowerCase();
}

describe('X-Content-Type-Options: nosniff on every API answer', () => {
  const api = () => ({ key: project.apiKey });
  const client = (body?: unknown) => ({ key: project.clientKey, body });
  it.each<[string, string, () => string, () => RequestOptions, number]>([
    ['a health check', 'GET', () => '/healthz', () => ({}), 200],
    ['the OpenAPI document', 'GET', () => '/openapi.json', () => ({}), 200],
    ['a server API read', 'GET', () => server('/devices'), api, 200],
    ['an SDK registration', 'PUT', () => sdk('/devices/nosniff-1'), () => client({ platform: 'web' }), 200],
    ['a request without a key', 'GET', () => server('/devices'), () => ({}), 401],
    ['a client key on the server API', 'GET', () => server('/devices'), () => client(), 403],
    ['an unknown device', 'GET', () => server('/devices/missing'), api, 404],
    ['an unknown route', 'GET', () => '/v2/whatever', () => ({}), 404],
    ['an invalid body', 'POST', () => server('/notifications'), () => ({ ...api(), body: { targetType: 'x' } }), 400],
    [
      'a body that is not JSON',
      'PUT',
      () => sdk('/devices/nosniff-2'),
      () => ({ ...client(), rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
    ],
    ['a path that is not valid percent-encoding', 'GET', () => server('/devices/%E0%A4%A'), api, 400],
  ])('on %s (%s)', async (_name, method, path, options, status) => {
    const response = await ingress.request(method, path(), options());
    expect(response.status).toBe(status);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("on a request Node's HTTP parser refused", async () => {
    const head = await rawHead('GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n');
    expect(head).toMatch(/^http\/1\.1 400 /);
    expect(head).toContain('x-content-type-options: nosniff');
  });
});
