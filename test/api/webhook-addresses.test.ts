import { createECDH, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:https';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';
import { connectToPublicAddressesOnly } from '../../src/net/public-address.ts';

/**
 * A production start (no WEBHOOKS_ALLOW_PRIVATE, live Web Push): webhook URLs and Web Push endpoints go only to
 * globally routable unicast addresses, never to this machine's own addresses, whatever range they are in.
 */
const config = testConfig({
  pushGateway: 'live',
  webhooks: { allowPrivate: false, retryBaseMs: 50, retryWindowMs: 3_600_000, slotLeaseMs: 60_000 },
});
const {
  ingress,
  projects: { project },
} = useIngress({ config, projects: { project: 'team' } });

/** Every address of this machine's interfaces, as the operating system has them, in URL form. */
const ownHosts = Object.values(networkInterfaces())
  .flatMap((entries) => entries ?? [])
  .map(({ address, family }) => (family === 'IPv6' ? `[${address.replace(/%.*$/, '')}]` : address));

const specialPurpose = ['192.0.2.1', '198.51.100.1', '203.0.113.5', '[2001:db8::1]', '100.64.0.1', '240.0.0.1'];
const specialPurposeV6 = [
  '[2001:2::1]',
  '[::ffff:192.0.2.1]',
  '[64:ff9b::c000:201]',
  '[2002:c000:201::1]',
  '[4000::1]',
];

const webhooks = (body: unknown) =>
  ingress.request('POST', `/v1/projects/${project.projectId}/webhooks`, { key: project.apiKey, body });

describe('where a webhook may go', () => {
  it("refuses this machine's own interface addresses, read from the operating system", async () => {
    expect(ownHosts.some((host) => !host.startsWith('127.') && host !== '[::1]')).toBe(true);
    for (const host of ownHosts) {
      const response = await webhooks({ url: `https://${host}:9443/hook`, events: ['message.failed'] });
      expect(response.status, host).toBe(400);
      expect(response.body.error.details).toEqual([
        { path: '/url', message: expect.stringMatching(/must be on a globally routable address/) },
      ]);
    }
  });

  it.each([...specialPurpose, ...specialPurposeV6])('refuses the special-purpose address %s', async (host) => {
    const response = await webhooks({ url: `https://${host}/hook`, events: ['message.failed'] });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { path: '/url', message: expect.stringMatching(/globally routable/) },
    ]);
  });

  it('takes a globally routable unicast address', async () => {
    const response = await webhooks({ url: 'https://8.8.8.8/hook', events: ['message.failed'] });
    expect(response.status).toBe(200);
  });

  it("refuses to connect to a name that resolves to this machine's own address", async () => {
    const [own] = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .filter((entry) => !entry.internal && entry.family === 'IPv4');
    const agent = new Agent();
    connectToPublicAddressesOnly(agent, (_name, callback) => callback(null, [{ address: own!.address, family: 4 }]));
    const error = await new Promise<NodeJS.ErrnoException>((resolve) =>
      request('https://hooks.customer.example/x', { agent }, () => resolve(new Error('connected')))
        .on('error', resolve)
        .end(),
    );
    expect(error).toMatchObject({ code: 'ENOTPUBLIC' });
  });
});

describe('where a live Web Push endpoint may go', () => {
  const keys = () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
  };

  it("refuses this machine's own addresses and the special-purpose ranges", async () => {
    for (const host of [...ownHosts, ...specialPurpose]) {
      const response = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/browser`, {
        key: project.clientKey,
        body: { platform: 'web', webPush: { endpoint: `https://${host}/push/x`, keys: keys() } },
      });
      expect(response.status, host).toBe(400);
      expect(response.body.error.details).toEqual([{ path: '/webPush/endpoint', message: expect.any(String) }]);
    }
  });
});
