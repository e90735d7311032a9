import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sendNotification, useDeliveryHarness, waitUntilCompleted } from '../support/delivery-harness.ts';

const {
  harness,
  projects: { project, other, restricted },
} = useDeliveryHarness({ projects: { project: 'team', other: 'team', restricted: 'starter' } });

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

async function sandboxSubscription(prefix = ''): Promise<Subscription> {
  const response = await fetch(`http://127.0.0.1:${harness.sandbox.port}/webpush/subscriptions`, {
    method: 'POST',
    body: JSON.stringify({ prefix }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Subscription;
}

async function registerWebPush(deviceId: string, webPush: Subscription, userId?: string) {
  const response = await harness.ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`, {
    key: project.clientKey,
    body: { platform: 'web', webPush, userId },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

const send = (body: unknown) => sendNotification(harness.ingress, project, body);
const device = async (deviceId: string) =>
  (
    await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, {
      key: project.apiKey,
    })
  ).body.data;

describe('the SDK config and Web Push registration (CONTRACTS §3)', () => {
  it('answers the project VAPID public key, the same on every call, different between projects', async () => {
    const config = async (owner: typeof project) =>
      (await harness.ingress.request('GET', `/v1/sdk/projects/${owner.projectId}/config`, { key: owner.clientKey }))
        .body;
    const first = await config(project);
    expect(first).toEqual({ data: { vapidPublicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/) } });
    expect(Buffer.from(first.data.vapidPublicKey, 'base64url')[0]).toBe(4);
    expect(await config(project)).toEqual(first);
    expect((await config(other)).data.vapidPublicKey).not.toBe(first.data.vapidPublicKey);
  });

  it('gives a project created before Web Push a key pair on first need, kept sealed', async () => {
    const { models } = harness.ingress.context;
    await models.Project.updateOne({ _id: other.projectId }, { $set: { vapid: null } });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        harness.ingress.request('GET', `/v1/sdk/projects/${other.projectId}/config`, { key: other.clientKey }),
      ),
    );
    const keys = new Set(answers.map((answer) => answer.body.data.vapidPublicKey));
    expect(keys.size).toBe(1);
    const stored = await models.Project.findById(other.projectId, { vapid: 1 }).lean();
    expect(stored?.vapid?.publicKey).toBe([...keys][0]);
    expect(Object.keys(stored?.vapid?.privateKey ?? {}).sort()).toEqual(['data', 'iv', 'tag']);
  });

  it('refuses a registration with both or neither of pushToken and webPush, or webPush on a phone, naming the fields', async () => {
    const webPush = await sandboxSubscription();
    const register = (body: unknown) =>
      harness.ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/bad`, {
        key: project.clientKey,
        body,
      });
    const both = await register({ platform: 'web', pushToken: 't', webPush });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ path: '/pushToken', message: 'must not be given with webPush' }]);
    const neither = await register({ platform: 'ios' });
    expect(neither.body.error.details).toEqual([
      { path: '/pushToken', message: 'is required for android and ios devices' },
    ]);
    const phone = await register({ platform: 'android', webPush });
    expect(phone.body.error.details).toEqual([
      { path: '/platform', message: 'must be web with a webPush subscription' },
    ]);
    const badKeys = await register({
      platform: 'web',
      webPush: { endpoint: 'http://push.example/x', keys: { p256dh: 'short', auth: webPush.keys.auth } },
    });
    expect(badKeys.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      '/webPush/endpoint',
      '/webPush/keys/p256dh',
    ]);
  });

  it('keeps a browser without a push subscription as an unsubscribed device until it subscribes, and again after', async () => {
    const path = `/v1/sdk/projects/${project.projectId}/devices/browser`;
    const register = async (body: object) =>
      (await harness.ingress.request('PUT', path, { key: project.clientKey, body: { platform: 'web', ...body } })).body
        .data;
    expect(await register({ userId: 'una' })).toEqual({ id: 'browser', userId: 'una', tags: {}, isSubscribed: false });
    expect(await register({ webPush: await sandboxSubscription() })).toMatchObject({
      userId: 'una',
      isSubscribed: true,
    });
    expect(await register({})).toMatchObject({ isSubscribed: false });
  });
});

describe('Web Push delivery (RFC 8030, 8291, 8292)', () => {
  it('sends by userId to the sandbox as a VAPID-signed aes128gcm push that decrypts to the rendered content', async () => {
    const webPush = await sandboxSubscription();
    await registerWebPush('web-1', webPush, 'wendy');
    const id = await send({
      targetType: 'userId',
      targetIds: ['wendy'],
      title: 'Hi {{ device.userId }}',
      body: 'Your order shipped',
      url: 'https://shop.example/o/1',
      data: { order: 1 },
    });
    const notification = await waitUntilCompleted(harness.ingress, project, id);
    expect(notification.stats).toMatchObject({ targeted: 1, sent: 1, failed: 0, unsubscribed: 0 });
    const [delivery, ...more] = harness.sandbox.deliveries(webPush.endpoint);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({
      gateway: 'webpush',
      token: webPush.endpoint,
      collapseId: id.replace(/-/g, ''),
      payload: {
        title: 'Hi wendy',
        body: 'Your order shipped',
        url: 'https://shop.example/o/1',
        imageUrl: null,
        tag: id.replace(/-/g, ''),
        data: { order: '1', notificationId: id },
      },
    });
  });

  it('unsubscribes a gone subscription after one send and skips it on the next', async () => {
    const gone = await sandboxSubscription('gone-');
    await registerWebPush('web-gone', gone);
    const first = await waitUntilCompleted(
      harness.ingress,
      project,
      await send({ targetType: 'device', targetIds: ['web-gone'], body: 'one' }),
    );
    expect(first.stats).toMatchObject({ targeted: 1, sent: 0, unsubscribed: 1 });
    expect(await device('web-gone')).toMatchObject({ isSubscribed: false });
    const second = await waitUntilCompleted(
      harness.ingress,
      project,
      await send({ targetType: 'device', targetIds: ['web-gone'], body: 'two' }),
    );
    expect(second.stats).toMatchObject({ targeted: 0, sent: 0 });
    expect(harness.sandbox.attempts(gone.endpoint).map((attempt) => attempt.status)).toEqual([410]);
  });

  it("delivers in sandbox mode to a real browser's subscription, on a push service the sandbox never issued, and keeps it subscribed", async () => {
    const { keys } = await sandboxSubscription();
    const endpoints = [
      'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bHchrome',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABfirefox',
      'https://web.push.apple.com/QGuQsafari',
    ];
    for (const [index, endpoint] of endpoints.entries())
      await registerWebPush(`browser-${index}`, { endpoint, keys }, 'bea');
    const notification = await waitUntilCompleted(
      harness.ingress,
      project,
      await send({ targetType: 'userId', targetIds: ['bea'], body: 'from the quick start' }),
    );
    expect(notification.stats).toMatchObject({ targeted: 3, sent: 3, unsubscribed: 0 });
    for (const [index, endpoint] of endpoints.entries()) {
      expect(harness.sandbox.deliveries(endpoint)).toMatchObject([{ gateway: 'webpush', token: endpoint }]);
      expect(await device(`browser-${index}`)).toMatchObject({ isSubscribed: true });
    }
  });

  it('retries a 503 and delivers once', async () => {
    const flaky = await sandboxSubscription('flaky-');
    await registerWebPush('web-flaky', flaky);
    const notification = await waitUntilCompleted(
      harness.ingress,
      project,
      await send({ targetType: 'device', targetIds: ['web-flaky'], body: 'again' }),
    );
    expect(notification.stats).toMatchObject({ sent: 1, failed: 0 });
    expect(harness.sandbox.attempts(flaky.endpoint).map((attempt) => attempt.status)).toEqual([503, 201]);
  });

  it('counts a rendered push too large for Web Push as failed, sending nothing', async () => {
    const webPush = await sandboxSubscription();
    await registerWebPush('web-big', webPush);
    const id = await send({
      targetType: 'device',
      targetIds: ['web-big'],
      body: '{{ data.text }}',
      data: { text: 'x'.repeat(4000) },
    });
    const notification = await waitUntilCompleted(harness.ingress, project, id);
    expect(notification.stats).toMatchObject({ sent: 0, failed: 1 });
    expect(harness.sandbox.attempts(webPush.endpoint)).toEqual([]);
  });

  it('keeps web devices with FCM tokens on FCM beside Web Push ones', async () => {
    const webPush = await sandboxSubscription();
    await registerWebPush('mixed-webpush', webPush, 'mia');
    const fcm = await harness.ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/mixed-fcm`, {
      key: project.clientKey,
      body: { platform: 'web', pushToken: 'fcm-web-token', userId: 'mia' },
    });
    expect(fcm.status).toBe(200);
    const notification = await waitUntilCompleted(
      harness.ingress,
      project,
      await send({ targetType: 'userId', targetIds: ['mia'], body: 'both' }),
    );
    expect(notification.stats).toMatchObject({ targeted: 2, sent: 2 });
    expect(harness.sandbox.deliveries('fcm-web-token')[0]?.gateway).toBe('fcm');
    expect(harness.sandbox.deliveries(webPush.endpoint)[0]?.gateway).toBe('webpush');
  });
});

describe('stats.clicked (CONTRACTS §6)', () => {
  it('counts distinct devices of the project that were sent the notification and reported @clicked with its id', async () => {
    const id = await send({ targetType: 'device', targetIds: ['web-1'], body: 'click me' });
    await waitUntilCompleted(harness.ingress, project, id);
    const click = (owner: typeof project, deviceId: string, notificationId = id) =>
      harness.ingress.request('POST', `/v1/sdk/projects/${owner.projectId}/devices/${deviceId}/events`, {
        key: owner.clientKey,
        body: { type: '@clicked', data: { notificationId } },
      });
    await harness.ingress.request('PUT', `/v1/sdk/projects/${other.projectId}/devices/stranger`, {
      key: other.clientKey,
      body: { platform: 'web' },
    });
    // web-flaky was never sent it: its click is accepted and not counted.
    for (const answer of [
      await click(project, 'web-1'),
      await click(project, 'web-1'),
      await click(project, 'web-flaky'),
      await click(other, 'stranger'),
    ]) {
      expect(answer.status).toBe(200);
    }
    const notification = await waitUntilCompleted(harness.ingress, project, id);
    expect(notification.stats.clicked).toBe(1);
  });
});

describe('CORS (CONTRACTS §3)', () => {
  const preflight = (path: string, origin: string) =>
    fetch(harness.ingress.baseUrl + path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('answers preflights on SDK routes for any origin, and carries the header on the answers', async () => {
    const answer = await preflight(`/v1/sdk/projects/${project.projectId}/devices/d1`, 'https://shop.example');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key');
    expect(answer.headers.get('access-control-allow-methods')).toContain('PUT');
    const config = await harness.ingress.request('GET', `/v1/sdk/projects/${project.projectId}/config`, {
      key: project.clientKey,
      headers: { origin: 'https://shop.example' },
    });
    expect(config.headers.get('access-control-allow-origin')).toBe('*');
    expect(config.headers.get('access-control-expose-headers')).toContain('retry-after');
    const refused = await harness.ingress.request('GET', `/v1/sdk/projects/${project.projectId}/config`, {
      key: 'wrong',
      headers: { origin: 'https://shop.example' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers an OPTIONS that is not a preflight (no Origin, no requested method) like one, not with a 400', async () => {
    const answer = await fetch(`${harness.ingress.baseUrl}/v1/sdk/projects/${project.projectId}/config`, {
      method: 'OPTIONS',
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-methods')).toContain('PUT');
  });

  it('sends no CORS headers on server API routes, not even to a preflight', async () => {
    const answer = await preflight(`/v1/projects/${project.projectId}/notifications`, 'https://shop.example');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const get = await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/web-1`, {
      key: project.apiKey,
      headers: { origin: 'https://shop.example' },
    });
    expect(get.status).toBe(200);
    for (const name of [
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-expose-headers',
      'vary',
    ])
      expect(get.headers.get(name)).toBeNull();
  });

  it('allows only the origins a project lists through npm run project:origins', async () => {
    const { config } = harness;
    const env = {
      ...process.env,
      MONGODB_URL: config.mongoUrl,
      REDIS_URL: config.redisUrl,
      QUEUE_PREFIX: config.queuePrefix,
      LOG_LEVEL: 'silent',
    };
    const script = resolve(import.meta.dirname, '../../bin/project/origins.ts');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [script, '--project', restricted.projectId, '--allow', 'https://allowed.example,http://localhost:8080', '--json'],
      { env },
    );
    expect(JSON.parse(stdout)).toEqual({
      projectId: restricted.projectId,
      allowedOrigins: 'https://allowed.example,http://localhost:8080',
    });
    const allowed = await preflight(`/v1/sdk/projects/${restricted.projectId}/devices/d1`, 'http://localhost:8080');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    const refused = await preflight(`/v1/sdk/projects/${restricted.projectId}/devices/d1`, 'https://elsewhere.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('content that cannot fit a push (about 4 KB)', () => {
  it('is a 400 before rendering, naming the fields that take the room', async () => {
    const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
      body: {
        targetType: 'device',
        targetIds: ['web-1'],
        title: 'T'.repeat(1000),
        body: `${'b'.repeat(2500)}{{ data.name }}`,
        data: { note: 'n'.repeat(1000) },
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([
      '/title',
      '/body',
      '/data',
    ]);
    expect(answer.body.error.details[1].message).toContain('takes 2500 bytes');
  });

  it('counts the notification id every push carries: a body of 4096 bytes is a 400, where it was accepted and failed on every gateway', async () => {
    const sendBody = (body: string) =>
      harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
        key: project.apiKey,
        body: { targetType: 'userId', targetIds: ['nobody'], body },
      });
    const refused = await sendBody('b'.repeat(4096));
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      {
        path: '/body',
        message:
          'it takes 4096 bytes before rendering; with the other fields and the notification id every push carries (4146 bytes) no push service takes more than 4096',
      },
    ]);
    expect((await sendBody('b'.repeat(4046))).status).toBe(200);
  });

  it('counts only text that renders whatever the variables: a long optional block is accepted', async () => {
    const id = await send({
      targetType: 'device',
      targetIds: ['web-1'],
      title: 'T'.repeat(1000),
      body: `Hi{% if data.long %}${'x'.repeat(3500)}{% endif %}{% comment %}{% endif %}{% endcomment %}`,
    });
    expect((await waitUntilCompleted(harness.ingress, project, id)).stats).toMatchObject({ sent: 1 });
  });
});

describe('the OpenAPI document', () => {
  it('lists the config route and the webPush registration shape, and no CORS preflight routes', async () => {
    const document = (await harness.ingress.request('GET', '/openapi.json')).body;
    const config = document.paths['/v1/sdk/projects/{projectId}/config'].get;
    expect(
      config.responses['200'].content['application/json'].schema.properties.data.properties.vapidPublicKey.type,
    ).toBe('string');
    const register =
      document.paths['/v1/sdk/projects/{projectId}/devices/{deviceId}'].put.requestBody.content['application/json']
        .schema;
    expect(register.properties.webPush.properties.endpoint.type).toBe('string');
    expect(Object.keys(register.properties.webPush.properties.keys.properties).sort()).toEqual(['auth', 'p256dh']);
    expect(register.required).toEqual(['platform']);
    for (const operations of Object.values<Record<string, unknown>>(document.paths))
      expect(operations.options).toBeUndefined();
  });
});
