import { request as httpsRequest } from 'node:https';
import { connect } from 'node:http2';
import { createConnection } from 'node:net';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

interface RawAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

function parse(text: string): unknown {
  return text === '' ? undefined : JSON.parse(text);
}

/** FCM HTTP v1 as firebase-admin's HTTP/1.1 transport speaks it. */
function postFcm(message: unknown, authorization = 'Bearer test-token'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ message });
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: sandbox.port,
        method: 'POST',
        path: '/v1/projects/demo/messages:send',
        rejectUnauthorized: false,
        headers: { authorization, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** APNs over HTTP/2, as a provider speaks it. */
function postApns(
  token: string,
  payload: unknown,
  headers: Record<string, string> = { authorization: 'bearer a.b.c', 'apns-topic': 'com.example.app' },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const session = connect(`https://127.0.0.1:${sandbox.port}`, { rejectUnauthorized: false });
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': `/3/device/${token}`, ...headers });
    let text = '';
    let answer: Record<string, unknown> = {};
    stream.on('response', (responseHeaders) => (answer = responseHeaders));
    stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => {
      session.close();
      resolve({ status: answer[':status'] as number, headers: answer, body: parse(text) });
    });
    stream.end(JSON.stringify(payload));
  });
}

const fcmErrorType = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

describe('sandbox FCM (HTTP v1 over HTTPS)', () => {
  it('accepts a message and answers its name', async () => {
    const answer = await postFcm({ token: 'raw-ok', notification: { body: 'hi' } });
    expect(answer.status).toBe(200);
    expect(answer.body.name).toMatch(/^projects\/demo\/messages\/\S+$/);
  });

  it('answers the real error bodies for unregistered, invalid and unavailable tokens', async () => {
    expect(await postFcm({ token: 'unregistered-raw' })).toMatchObject({
      status: 404,
      body: {
        error: {
          code: 404,
          message: 'Requested entity was not found.',
          status: 'NOT_FOUND',
          details: [{ '@type': fcmErrorType, errorCode: 'UNREGISTERED' }],
        },
      },
    });
    expect(await postFcm({ token: 'invalid-raw' })).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'The registration token is not a valid FCM registration token',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': fcmErrorType, errorCode: 'INVALID_ARGUMENT' }],
        },
      },
    });
    expect(await postFcm({ token: 'flaky-raw' })).toMatchObject({
      status: 503,
      body: { error: { status: 'UNAVAILABLE' } },
    });
    expect(await postFcm({ token: 'flaky-raw' })).toMatchObject({ status: 200 });
  });

  it('refuses a request without an OAuth token and a non-https web link', async () => {
    expect(await postFcm({ token: 'raw-2' }, '')).toMatchObject({
      status: 401,
      body: { error: { status: 'UNAUTHENTICATED' } },
    });
    expect(await postFcm({ token: 'raw-3', webpush: { fcmOptions: { link: 'http://example.com' } } })).toMatchObject({
      status: 400,
      body: { error: { status: 'INVALID_ARGUMENT' } },
    });
  });

  it('refuses a message over the 4096 bytes FCM carries, as FCM does', async () => {
    const notification = { title: 'Sale', body: 'x'.repeat(4000) };
    expect(await postFcm({ token: 'raw-5', notification, data: { code: 'y'.repeat(88) } })).toMatchObject({
      status: 200,
    });
    expect(await postFcm({ token: 'raw-5', notification, data: { code: 'y'.repeat(89) } })).toMatchObject({
      status: 400,
      body: { error: { status: 'INVALID_ARGUMENT', message: 'Android message is too big' } },
    });
  });

  it('refuses a message whose data holds a key FCM reserves, as FCM does', async () => {
    for (const key of ['from', 'message_type', 'google.sent_time', 'gcm.notification.e'])
      expect(await postFcm({ token: 'raw-4', data: { [key]: 'x' } })).toMatchObject({
        status: 400,
        body: { error: { status: 'INVALID_ARGUMENT', message: `Invalid data payload key: ${key}` } },
      });
    expect(await postFcm({ token: 'raw-4', data: { fromCity: 'x', aps: 'x' } })).toMatchObject({ status: 200 });
  });
});

describe('sandbox APNs (HTTP/2 over TLS)', () => {
  it('accepts a push with an apns-id and an empty body', async () => {
    const answer = await postApns('raw-ios-ok', { aps: { alert: { body: 'hi' } } });
    expect(answer.status).toBe(200);
    expect(answer.headers['apns-id']).toEqual(expect.any(String));
    expect(answer.body).toBeUndefined();
  });

  it('answers the APNs JSON reasons', async () => {
    const unregistered = await postApns('unregistered-raw', { aps: {} });
    expect(unregistered.status).toBe(410);
    expect(unregistered.body).toEqual({ reason: 'Unregistered', timestamp: expect.any(Number) });
    expect(await postApns('invalid-raw', { aps: {} })).toMatchObject({
      status: 400,
      body: { reason: 'BadDeviceToken' },
    });
    expect(await postApns('flaky-raw', { aps: {} })).toMatchObject({
      status: 503,
      body: { reason: 'ServiceUnavailable' },
    });
    expect(await postApns('ios-raw', { aps: {} }, { authorization: 'bearer a.b.c' })).toMatchObject({
      status: 400,
      body: { reason: 'MissingTopic' },
    });
    expect(await postApns('ios-raw', { aps: {} }, { 'apns-topic': 'x' })).toMatchObject({
      status: 403,
      body: { reason: 'MissingProviderToken' },
    });
  });
});

describe('sandbox /deliveries (plain HTTP on the same port)', () => {
  it('lists what was accepted for a token, oldest first, with gateway, payload, option headers and receivedAt', async () => {
    await postFcm({ token: 'shared-token', notification: { body: 'first' } });
    await postApns('shared-token', { aps: { alert: { body: 'second' } } });
    await postFcm({ token: 'other-token', notification: { body: 'elsewhere' } });
    const response = await fetch(`http://127.0.0.1:${sandbox.port}/deliveries?token=shared-token`);
    expect(response.status).toBe(200);
    const deliveries = (await response.json()) as { receivedAt: string }[];
    expect(deliveries).toEqual([
      {
        gateway: 'fcm',
        token: 'shared-token',
        payload: { token: 'shared-token', notification: { body: 'first' } },
        headers: {},
        receivedAt: expect.any(String),
      },
      {
        gateway: 'apns',
        token: 'shared-token',
        payload: { aps: { alert: { body: 'second' } } },
        headers: {},
        receivedAt: expect.any(String),
      },
    ]);
    expect(Date.parse(deliveries[0]!.receivedAt)).toBeLessThanOrEqual(Date.parse(deliveries[1]!.receivedAt));
  });

  it('does not list refused attempts, which /attempts shows with their status', async () => {
    await postApns('unregistered-listed', { aps: {} });
    expect(await (await fetch(`http://127.0.0.1:${sandbox.port}/deliveries?token=unregistered-listed`)).json()).toEqual(
      [],
    );
    expect(await (await fetch(`http://127.0.0.1:${sandbox.port}/attempts?token=unregistered-listed`)).json()).toEqual([
      {
        gateway: 'apns',
        token: 'unregistered-listed',
        status: 410,
        reason: 'Unregistered',
        receivedAt: expect.any(String),
      },
    ]);
  });

  it('forgets every delivery and attempt logged so far, and logs those after', async () => {
    await postFcm({ token: 'before-forget', notification: { body: 'dropped' } });
    await postApns('unregistered-before-forget', { aps: {} });
    sandbox.forget();
    expect(sandbox.deliveries()).toEqual([]);
    expect(sandbox.deliveries('before-forget')).toEqual([]);
    expect(sandbox.attempts('unregistered-before-forget')).toEqual([]);
    await postFcm({ token: 'after-forget', notification: { body: 'kept' } });
    expect(sandbox.deliveries().map((delivery) => delivery.token)).toEqual(['after-forget']);
    expect(sandbox.attempts().map((attempt) => attempt.token)).toEqual(['after-forget']);
  });
});

describe('sandbox connections', () => {
  // The sandbox runs in this test's process: without the fix, vitest reports the unhandled ECONNRESET and fails the run.
  it('keeps serving after a client resets its connection before sending a byte', async () => {
    await new Promise<void>((resolve, reject) => {
      const socket = createConnection(sandbox.port, '127.0.0.1', () => socket.resetAndDestroy());
      socket.once('close', () => resolve());
      socket.once('error', reject);
    });
    expect((await postFcm({ token: 'after-reset', notification: { body: 'still here' } })).status).toBe(200);
  });
});

describe('sandbox Web Push service (CONTRACTS §10)', () => {
  const vapidDetails = { subject: 'mailto:ops@example.com', ...webpush.generateVAPIDKeys() };

  /** A push as the product's Web Push client builds it, with headers the caller may change. */
  function postWebPush(
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
    change: (headers: Record<string, string>) => Record<string, string> = (headers) => headers,
  ): Promise<number> {
    const details = webpush.generateRequestDetails(subscription, JSON.stringify({ body: 'hello' }), { vapidDetails });
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        details.endpoint,
        { method: 'POST', headers: change(details.headers as Record<string, string>), rejectUnauthorized: false },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(details.body);
    });
  }

  it('refuses a push without VAPID, with a VAPID for another audience, or not aes128gcm, and decrypts a good one', async () => {
    const subscription = sandbox.issueWebPushSubscription();
    const unsigned = ({ Authorization: _, ...headers }: Record<string, string>) => headers;
    expect(await postWebPush(subscription, unsigned)).toBe(401);
    const elsewhere = webpush.getVapidHeaders(
      'https://push.example.net',
      vapidDetails.subject,
      vapidDetails.publicKey,
      vapidDetails.privateKey,
      'aes128gcm',
    );
    expect(await postWebPush(subscription, (headers) => ({ ...headers, ...elsewhere }))).toBe(401);
    expect(await postWebPush(subscription, (headers) => ({ ...headers, 'Content-Encoding': 'aesgcm' }))).toBe(415);
    expect(sandbox.deliveries(subscription.endpoint)).toEqual([]);
    expect(await postWebPush(subscription)).toBe(201);
    expect(sandbox.deliveries(subscription.endpoint)).toMatchObject([
      { gateway: 'webpush', payload: { body: 'hello' } },
    ]);
  });
});

describe('sandbox failureRate (fault tests)', () => {
  it('refuses about that share of pushes with 503, the same attempts for the same seed, and none by default', async () => {
    const { createTokenRules } = await import('../../sandbox/token-rules.ts');
    const verdicts = (rules: ReturnType<typeof createTokenRules>) =>
      Array.from({ length: 4000 }, (_, index) =>
        rules.verdictFor(index % 2 === 0 ? 'fcm' : 'apns', `token-${index % 1000}`),
      );
    const first = verdicts(createTokenRules({ failureRate: 0.3, seed: 7 }));
    const refused = first.filter((verdict) => verdict === 'unavailable').length / first.length;
    expect(refused).toBeGreaterThan(0.27);
    expect(refused).toBeLessThan(0.33);
    expect(verdicts(createTokenRules({ failureRate: 0.3, seed: 7 }))).toEqual(first);
    expect(verdicts(createTokenRules({ failureRate: 0.3, seed: 8 }))).not.toEqual(first);
    expect(new Set(verdicts(createTokenRules()))).toEqual(new Set(['accept']));
  });
});
