import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../local/services/free-port.ts';
import { sendRequest, startIngress, useIngress } from '../support/ingress.ts';
import { processEnv, startNodeProcess, type NodeProcess } from '../support/child-processes.ts';
import { eventually } from '../support/eventually.ts';
import { pastSameInterrupt } from '../support/interrupts.ts';
import { connectionRefused } from '../support/connection-refused.ts';
import { sendStalledRequest } from '../support/stalled-request.ts';
import { startMongoGate, type MongoGate } from '../support/mongo-gate.ts';

// Only to create the project; the ingress under test is a process of its own.
const { ingress: setup } = useIngress();
// The ingress under test reaches MongoDB through it, so that a request can be held at its device write.
let gate: MongoGate;
beforeAll(async () => {
  gate = await startMongoGate(setup.context.config.mongoUrl);
});
afterAll(() => gate?.close());

describe('ingress shutdown', () => {
  // SIGHUP: a closed terminal, which reaches every process of `npm start` (Node's default for it is to exit at once).
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s: refuses new connections, lets the request in flight finish with 200, then exits',
    async (signal) => {
      const config = setup.context.config;
      const port = await findFreePort();
      const ingress = startNodeProcess(
        'src/server.ts',
        processEnv(config, { MONGODB_URL: gate.url, PORT: String(port), HOST: '127.0.0.1' }),
      );
      try {
        const baseUrl = `http://127.0.0.1:${port}`;
        await eventually(async () => expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200), 30_000, 50);
        const project = await setup.createProject('team');
        const devicePath = `/v1/sdk/projects/${project.projectId}/devices/drain-1`;
        const registered = await sendRequest(baseUrl, 'PUT', devicePath, {
          key: project.clientKey,
          body: { platform: 'android', pushToken: 'drain-tok' },
        });
        expect(registered.status).toBe(200);

        // The request in flight waits for its device write, held by the gate, so it is still running when SIGTERM arrives.
        gate.hold('update', 'devices');
        const inFlight = sendRequest<any>(baseUrl, 'PATCH', devicePath, {
          key: project.clientKey,
          body: { tags: { plan: 'gold' } },
        });
        await eventually(() => expect(gate.held()).toBe(1));

        ingress.child.kill(signal);
        await eventually(async () => expect(await connectionRefused(port)).toBe(true), 5000);
        expect(ingress.child.exitCode).toBeNull();
        gate.release();

        const answer = await inFlight;
        expect(answer.status).toBe(200);
        expect(answer.body.data.tags).toEqual({ plan: 'gold' });
        expect(await ingress.exited).toEqual({ code: 0, signal: null });
      } finally {
        await ingress.stop();
      }
    },
  );

  it('while draining, answers a request that still arrives 503 in the error format, closing its connection', async () => {
    const draining = await startIngress(setup.context.config);
    try {
      const project = await setup.createProject('team');
      draining.startDraining();
      for (const [method, path, key] of [
        ['GET', '/healthz', project.apiKey],
        ['GET', `/v1/projects/${project.projectId}/notifications`, project.apiKey],
        ['PATCH', `/v1/sdk/projects/${project.projectId}/devices/web-1`, project.clientKey],
      ] as const) {
        const answer = await draining.request(method, path, { key, headers: { origin: 'https://shop.example' } });
        expect(answer.status, path).toBe(503);
        expect(answer.body).toEqual({
          error: { code: 'unavailable', message: 'This server is shutting down; nothing was accepted. Retry shortly.' },
        });
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.headers.get('connection')).toBe('close');
        // A web page's SDK reads the 503 and retries; server routes carry no CORS (CONTRACTS §3).
        expect(answer.headers.get('access-control-allow-origin'), path).toBe(path.startsWith('/v1/sdk/') ? '*' : null);
      }
    } finally {
      await draining.close();
    }
  });

  /** An ingress holding an authenticated request in flight whose body never arrives. */
  async function ingressWithStalledRequest(env: Record<string, string>) {
    const port = await findFreePort();
    const ingress = startNodeProcess(
      'src/server.ts',
      processEnv(setup.context.config, { PORT: String(port), HOST: '127.0.0.1', ...env }),
    );
    const stalled = new Socket();
    stalled.on('error', () => undefined);
    await eventually(
      async () => expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200),
      30_000,
      50,
    );
    const project = await setup.createProject('team');
    await sendStalledRequest(stalled, port, `/v1/sdk/projects/${project.projectId}/devices/stalled`, project.clientKey);
    return {
      ingress,
      port,
      async stop() {
        stalled.destroy();
        await ingress.stop();
      },
    };
  }

  const exitWithin = (ingress: NodeProcess, ms: number) =>
    Promise.race([
      ingress.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms)),
    ]);

  it('SIGTERM: closes a connection whose client stopped sending mid-request once INGRESS_SHUTDOWN_GRACE_MS has passed', async () => {
    const { ingress, stop } = await ingressWithStalledRequest({ INGRESS_SHUTDOWN_GRACE_MS: '500' });
    try {
      ingress.child.kill('SIGTERM');
      expect(await exitWithin(ingress, 10_000), ingress.output()).toEqual({ code: 0, signal: null });
    } finally {
      await stop();
    }
  });

  it('Ctrl-C twice: exits at once, without waiting for the request in flight or the grace period', async () => {
    const { ingress, port, stop } = await ingressWithStalledRequest({});
    try {
      ingress.child.kill('SIGINT');
      // Draining: it stops listening at once, so it has handled the SIGINT by now.
      await eventually(async () => expect(await connectionRefused(port)).toBe(true), 5000);
      await pastSameInterrupt(Date.now());
      ingress.child.kill('SIGINT');
      // The default grace is 10 s.
      expect(await exitWithin(ingress, 3000), ingress.output()).toEqual({ code: 130, signal: null });
    } finally {
      await stop();
    }
  });
});
