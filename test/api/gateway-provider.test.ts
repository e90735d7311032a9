import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.ts';
import { createGatewayProvider } from '../../src/gateways/create-gateway-provider.ts';
import { connectMongo } from '../../src/infra/mongo.ts';
import { createModels, type Models } from '../../src/models/index.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { setPushCredentials } from '../../src/projects/set-credentials.ts';
import { testConfig } from '../support/test-config.ts';
import { outgoingPush } from '../support/outgoing-push.ts';

let sandbox: Sandbox;
let connection: Connection;
let models: Models;
const config = testConfig({ pushGateway: 'live' });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  connection = await connectMongo(config.mongoUrl);
  models = createModels(connection);
});
afterAll(async () => {
  await connection.close();
  await sandbox.close();
});
afterEach(() => vi.useRealTimers());

function apnsCredentials(topic: string) {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  return { key, keyId: 'KEY1234567', teamId: 'TEAM123456', topic, production: false };
}

describe('gateway provider', () => {
  it('in sandbox mode sends every project through the sandbox', async () => {
    const provider = createGatewayProvider({ ...config, pushGateway: 'sandbox', sandboxPort: sandbox.port }, models);
    try {
      expect(
        await (await provider.gatewayFor('any-project', 'fcm')).send([outgoingPush('provider-android', 'android')]),
      ).toEqual([{ kind: 'sent' }]);
      expect(
        await (await provider.gatewayFor('other-project', 'apns')).send([outgoingPush('provider-ios', 'ios')]),
      ).toEqual([{ kind: 'sent' }]);
      expect(sandbox.deliveries('provider-android')).toHaveLength(1);
      expect(sandbox.deliveries('provider-ios')).toHaveLength(1);
    } finally {
      await provider.close();
    }
  });

  it('in live mode calls no Web Push endpoint inside the network, however its host is written', async () => {
    const { projectId } = await createProject(models, { name: 'inside', plan: 'team' }, config.credentialsKey);
    const provider = createGatewayProvider(config, models);
    try {
      // A working push service, but on loopback: the sandbox would accept it.
      const loopback = sandbox.issueWebPushSubscription();
      const path = new URL(loopback.endpoint).pathname;
      const port = new URL(loopback.endpoint).port;
      const endpoints = [
        loopback.endpoint,
        `https://localhost:${port}${path}`,
        // Hosts a WHATWG URL reads otherwise than the library that sends (127.0.0.1;x is not an address to it).
        `https://127.0.0.1;x:${port}${path}`,
        `https://2130706433:${port}${path}`,
        'https://[::ffff:169.254.169.254]/latest/meta-data',
        'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
        'https://[::ffff:0:a9fe:a9fe]/latest/meta-data',
        // Teredo: a relay's address, then the client's inverted (here 10.0.0.1).
        'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/x',
        'https://[2002:c0a8:101::1]/x',
      ];
      const outcomes = await (await provider.gatewayFor(projectId, 'webpush')).send(
        endpoints.map((endpoint) => outgoingPush(endpoint, 'web', { webPushKeys: loopback.keys })),
      );
      for (const [index, outcome] of outcomes.entries())
        expect(outcome, endpoints[index]).toEqual({
          kind: 'failed',
          reason: expect.stringMatching(/^webpush: .* is not a public address$/),
        });
      expect(sandbox.deliveries(loopback.endpoint)).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it('in live mode sends a call whose other endpoints are sound past an endpoint no URL parser takes', async () => {
    const { projectId } = await createProject(models, { name: 'unparsable', plan: 'team' }, config.credentialsKey);
    const provider = createGatewayProvider(config, models);
    try {
      const { keys } = sandbox.issueWebPushSubscription();
      const outcomes = await (await provider.gatewayFor(projectId, 'webpush')).send([
        outgoingPush('https://x:99999/p', 'web', { webPushKeys: keys }),
        outgoingPush('https://127.0.0.1/p', 'web', { webPushKeys: keys }),
      ]);
      expect(outcomes).toEqual([
        { kind: 'failed', reason: 'webpush: the endpoint is not a URL' },
        { kind: 'failed', reason: 'webpush: 127.0.0.1 is not a public address' },
      ]);
    } finally {
      await provider.close();
    }
  });

  it('in live mode fails every push of a project without credentials, naming what is missing', async () => {
    const { projectId } = await createProject(models, { name: 'no credentials', plan: 'team' });
    const provider = createGatewayProvider(config, models);
    try {
      const outcomes = await (await provider.gatewayFor(projectId, 'fcm')).send([
        outgoingPush('a', 'android'),
        outgoingPush('b', 'web'),
      ]);
      expect(outcomes).toEqual([
        { kind: 'failed', reason: 'the project has no FCM credentials' },
        { kind: 'failed', reason: 'the project has no FCM credentials' },
      ]);
    } finally {
      await provider.close();
    }
  });

  it('in live mode fails the pushes when the credentials were sealed with another CREDENTIALS_KEY', async () => {
    const { projectId } = await createProject(models, { name: 'other key', plan: 'team' });
    await setPushCredentials(models, randomBytes(32), projectId, { apns: apnsCredentials('com.example.one') });
    const provider = createGatewayProvider(config, models);
    try {
      const [outcome] = await (await provider.gatewayFor(projectId, 'apns')).send([outgoingPush('c', 'ios')]);
      expect(outcome).toEqual({
        kind: 'failed',
        reason: 'the project APNs credentials cannot be decrypted with CREDENTIALS_KEY',
      });
    } finally {
      await provider.close();
    }
  });

  it('caches a project client and rebuilds it once its credentials were set again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { projectId } = await createProject(models, { name: 'cached', plan: 'team' });
    await setPushCredentials(models, config.credentialsKey, projectId, { apns: apnsCredentials('com.example.first') });
    const provider = createGatewayProvider(config, models);
    try {
      const first = await provider.gatewayFor(projectId, 'apns');
      expect(await provider.gatewayFor(projectId, 'apns')).toBe(first);
      await setPushCredentials(models, config.credentialsKey, projectId, {
        apns: apnsCredentials('com.example.second'),
      });
      vi.setSystemTime(Date.now() + 31_000);
      const rebuilt = await provider.gatewayFor(projectId, 'apns');
      expect(rebuilt).not.toBe(first);
      vi.setSystemTime(Date.now() + 31_000);
      expect(await provider.gatewayFor(projectId, 'apns')).toBe(rebuilt);
    } finally {
      await provider.close();
    }
  });
});
