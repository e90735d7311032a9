import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';

/**
 * A Web Push endpoint must be https to a public address when it is registered (the rule the live gateway applies
 * when it connects): one the gateway would refuse to call is a 400 naming /webPush/endpoint, not a device that fails
 * every send. In sandbox mode, where every push goes to the sandbox, the sandbox's loopback endpoints are taken.
 */
const live = useIngress({ config: testConfig({ pushGateway: 'live' }), projects: { project: 'team' } });
const sandbox = useIngress({ projects: { project: 'team' } });

const keys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
};

function register(fixture: typeof live, deviceId: string, endpoint: string) {
  const { ingress, projects } = fixture;
  return ingress.request('PUT', `/v1/sdk/projects/${projects.project.projectId}/devices/${deviceId}`, {
    key: projects.project.clientKey,
    body: { platform: 'web', webPush: { endpoint, keys: keys() } },
  });
}

describe('Web Push endpoints at registration', () => {
  it.each([
    'https://169.254.169.254/',
    'https://127.0.0.1:5999/x',
    'https://2130706433:5999/',
    'https://0x7f.1/x',
    'https://[::ffff:127.0.0.1]/',
    'https://[::1]/x',
    'https://10.1.2.3/x',
    'https://[fd00::1]/x',
    'https://localhost:5999/x',
    'https://push.localhost/x',
    'https://metadata/computeMetadata',
    'https://printer.local/x',
    'https://api.internal/x',
    'https://127.0.0.1;x/x',
    'https://user:secret@fcm.googleapis.com/fcm/send/x',
    'http://fcm.googleapis.com/fcm/send/x',
  ])('refuses %s with a 400 naming /webPush/endpoint, and stores nothing', async (endpoint) => {
    const response = await register(live, 'inside', endpoint);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.details).toEqual([{ path: '/webPush/endpoint', message: expect.any(String) }]);
    const stored = await live.ingress.request('GET', `/v1/projects/${live.projects.project.projectId}/devices/inside`, {
      key: live.projects.project.apiKey,
    });
    expect(stored.status).toBe(404);
  });

  it.each([
    'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAA',
    'https://web.push.apple.com/QGuQ',
    'https://8.8.8.8/x',
    'https://[2001:4860:4860::8888]/x',
  ])("takes a push service's public endpoint %s", async (endpoint) => {
    const response = await register(live, 'outside', endpoint);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });

  it("takes the sandbox's loopback endpoints while PUSH_GATEWAY=sandbox, and still only https", async () => {
    for (const endpoint of ['https://127.0.0.1:4100/webpush/push/abc', 'https://sandbox:4100/webpush/push/abc'])
      expect((await register(sandbox, 'sandboxed', endpoint)).status).toBe(200);
    const plain = await register(sandbox, 'sandboxed', 'http://127.0.0.1:4100/webpush/push/abc');
    expect(plain.status).toBe(400);
    expect(plain.body.error.details).toEqual([{ path: '/webPush/endpoint', message: expect.any(String) }]);
  });
});
