import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { deviceLockKey } from '../src/devices/device-store.ts';
import { findFreePort } from '../scripts/services/free-port.ts';
import { sendRequest, useIngress } from './support/ingress.ts';
import { processEnv, startNodeProcess } from './support/child-processes.ts';
import { eventually } from './support/eventually.ts';
import { connectionRefused } from './support/connection-refused.ts';

// Only to create the project; the ingress under test is a process of its own.
const { ingress: setup } = useIngress();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(setup.context.config.redisUrl);
});
afterAll(() => redis?.disconnect());


describe('ingress shutdown', () => {
  it('SIGTERM: refuses new connections, lets the request in flight finish with 200, then exits', async () => {
    const config = setup.context.config;
    const port = await findFreePort();
    const ingress = startNodeProcess('src/server.ts', processEnv(config, { PORT: String(port), HOST: '127.0.0.1' }));
    try {
      const baseUrl = `http://127.0.0.1:${port}`;
      await eventually(async () => expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200), 30_000, 50);
      const project = await setup.createProject('team');
      const devicePath = `/v1/sdk/projects/${project.projectId}/devices/drain-1`;
      const registered = await sendRequest(baseUrl, 'PUT', devicePath, { key: project.clientKey, body: { platform: 'android', pushToken: 'drain-tok' } });
      expect(registered.status).toBe(200);

      // The request in flight waits for the device's lock, held here, so it is still running when SIGTERM arrives.
      const lock = deviceLockKey(config.queuePrefix, project.projectId, 'drain-1');
      await redis.set(lock, 'held by the test', 'PX', 30_000);
      const commands = await redis.monitor();
      let lockTried = false;
      commands.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'set' && args[1] === lock) lockTried = true;
      });
      const inFlight = sendRequest<any>(baseUrl, 'PATCH', devicePath, { key: project.clientKey, body: { tags: { plan: 'gold' } } });
      await eventually(() => expect(lockTried).toBe(true));
      commands.disconnect();

      ingress.child.kill('SIGTERM');
      await eventually(async () => expect(await connectionRefused(port)).toBe(true), 5000);
      expect(ingress.child.exitCode).toBeNull();
      await redis.del(lock);

      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body.data.tags).toEqual({ plan: 'gold' });
      expect(await ingress.exited).toEqual({ code: 0, signal: null });
    } finally {
      await ingress.stop();
    }
  });
});
