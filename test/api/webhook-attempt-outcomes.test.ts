import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { eventually } from '../support/eventually.ts';

/** With WEBHOOKS_ALLOW_PRIVATE (local development), so that loopback services can stand in for a customer's. */
const { ingress } = useIngress({ workers: ['webhook'] });

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * An endpoint for in_app.displayed at `url` in a fresh project (whose endpoints no cache holds yet), called once
 * through a client-key report; its first attempt.
 */
async function firstAttempt(url: string) {
  const project = await ingress.createProject('team');
  const api = `/v1/projects/${project.projectId}`;
  const created = await ingress.request('POST', `${api}/webhooks`, {
    key: project.apiKey,
    body: { url, events: ['in_app.displayed'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const device = 'reporter';
  await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${device}`, {
    key: project.clientKey,
    body: { platform: 'android', pushToken: `token-${device}` },
  });
  await ingress.request('POST', `/v1/sdk/projects/${project.projectId}/devices/${device}/events`, {
    key: project.clientKey,
    body: { type: '@iam_displayed', data: { inAppMessageId: 'm1' } },
  });
  const attempts = await eventually(async () => {
    const listed = await ingress.request('GET', `${api}/webhooks/${created.body.data.id}/attempts`, {
      key: project.apiKey,
    });
    expect(listed.body.data.length).toBeGreaterThan(0);
    return listed.body.data;
  });
  // Deleted, so that its retries stop.
  await ingress.request('DELETE', `${api}/webhooks/${created.body.data.id}`, { key: project.apiKey });
  return attempts[attempts.length - 1];
}

describe('what the attempts log says of a call', () => {
  it('a coarse outcome, never the network error text that would map the network', async () => {
    const refused = await firstAttempt(`https://127.0.0.1:${await closedPort()}/hook`);
    expect(refused).toMatchObject({ status: null, error: 'refused' });
    const plainPort = await listen(createServer((_request, response) => response.end('ok')));
    const plainService = await firstAttempt(`https://127.0.0.1:${plainPort}/hook`);
    expect(plainService).toMatchObject({ status: null, error: 'tls_failed' });
    for (const attempt of [refused, plainService])
      expect(Object.keys(attempt).sort()).toEqual(['at', 'durationMs', 'error', 'status', 'type', 'webhookId']);
  });

  it("reads at most 64 KB of a receiver's answer", async () => {
    let written = 0;
    let ended = false;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const port = await listen(
      createServer((request, response) => {
        request.resume();
        response.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
        const writeMore = () => {
          while (!ended && written < 50 * 1024 * 1024) {
            written += chunk.length;
            if (!response.write(chunk)) return response.once('drain', writeMore);
          }
          response.end();
        };
        response.on('close', () => {
          ended = true;
        });
        writeMore();
      }),
    );
    const attempt = await firstAttempt(`http://127.0.0.1:${port}/hook`);
    expect(attempt).toMatchObject({ status: 200, error: null });
    await eventually(() => expect(ended).toBe(true));
    // What the socket buffers took before the call stopped reading, far from the 50 MB offered.
    expect(written).toBeLessThan(8 * 1024 * 1024);
  });
});
