import { describe, expect, it } from 'vitest';
import { useSandboxGateways, withUnreachableGateways } from '../support/sandbox-gateways.ts';
import { outgoingPush } from '../support/outgoing-push.ts';
import { createFcmGateway } from '../../src/gateways/fcm/fcm-gateway.ts';
import { sandboxFcmAgent } from '../../src/gateways/fcm/sandbox-agent.ts';

const gateways = useSandboxGateways();

describe('FCM adapter against the sandbox', () => {
  it('delivers an Android push with title, body, image, url, data and collapse key as FCM v1 receives them', async () => {
    expect(await gateways.fcm.send([outgoingPush('android-1', 'android')])).toEqual([{ kind: 'sent' }]);
    const [delivery] = gateways.sandbox.deliveries('android-1');
    expect(delivery).toMatchObject({ gateway: 'fcm', token: 'android-1' });
    expect(delivery!.payload).toEqual({
      token: 'android-1',
      notification: { title: 'Spring sale', body: 'Everything is 20% off today' },
      data: {
        campaign: 'spring',
        notificationId: 'n-1',
        url: 'https://shop.example.com/sale',
        imageUrl: 'https://cdn.example.com/sale.png',
      },
      // The tag replaces a notification already shown, as a push sent twice (CONTRACTS §1) would otherwise show twice.
      android: { collapse_key: 'n-1', notification: { tag: 'n-1', image: 'https://cdn.example.com/sale.png' } },
    });
  });

  it('delivers a web push with the image and an https click link', async () => {
    expect(await gateways.fcm.send([outgoingPush('web-1', 'web')])).toEqual([{ kind: 'sent' }]);
    expect(gateways.sandbox.deliveries('web-1')[0]!.payload).toMatchObject({
      notification: { title: 'Spring sale', body: 'Everything is 20% off today' },
      webpush: {
        headers: { Topic: 'n1' },
        notification: { tag: 'n-1', image: 'https://cdn.example.com/sale.png' },
        fcmOptions: { link: 'https://shop.example.com/sale' },
      },
      data: { url: 'https://shop.example.com/sale' },
    });
  });

  it('keeps a non-https url out of the web click link (FCM refuses it) and still delivers it in data', async () => {
    const outcomes = await gateways.fcm.send([
      outgoingPush('web-http', 'web', { url: 'http://shop.example.com/sale', imageUrl: null, title: null }),
    ]);
    expect(outcomes).toEqual([{ kind: 'sent' }]);
    const payload = gateways.sandbox.deliveries('web-http')[0]!.payload as Record<string, any>;
    expect(payload.webpush).toEqual({ headers: { Topic: 'n1' }, notification: { tag: 'n-1' } });
    expect(payload.data).toEqual({ campaign: 'spring', notificationId: 'n-1', url: 'http://shop.example.com/sale' });
    expect(payload.notification).toEqual({ body: 'Everything is 20% off today' });
  });

  it('still delivers an Android push whose image url needs encoding, is no url at all, or one firebase-admin refuses', async () => {
    // URLs firebase-admin's validator refuses, failing the whole message where it could go out without the image.
    const refused = [
      'https://my_bucket.s3.amazonaws.com/banner.png',
      'https://example.com//i.png',
      'https://example.com/a[1].png',
      'https://example.com./i.png',
    ];
    const pushes = [
      outgoingPush('android-space', 'android', { imageUrl: 'https://cdn.example.com/spring sale.png' }),
      outgoingPush('android-nonsense', 'android', { imageUrl: 'not a url' }),
      ...refused.map((imageUrl, index) => outgoingPush(`android-refused-${index}`, 'android', { imageUrl })),
    ];
    const outcomes = await gateways.fcm.send(pushes);
    expect(outcomes).toEqual(pushes.map(() => ({ kind: 'sent' })));
    expect(gateways.sandbox.deliveries('android-space')[0]!.payload).toMatchObject({
      android: { notification: { image: 'https://cdn.example.com/spring%20sale.png' } },
    });
    for (const [token, imageUrl] of [
      ['android-nonsense', 'not a url'],
      ...refused.map((url, index) => [`android-refused-${index}`, url]),
    ] as const) {
      const payload = gateways.sandbox.deliveries(token)[0]!.payload as Record<string, any>;
      expect(payload.android, imageUrl).toEqual({ collapse_key: 'n-1', notification: { tag: 'n-1' } });
      expect(payload.data.imageUrl).toBe(imageUrl);
    }
  });

  it('answers unsubscribed for UNREGISTERED and for the invalid-registration-token INVALID_ARGUMENT', async () => {
    const outcomes = await gateways.fcm.send([
      outgoingPush('unregistered-f1', 'android'),
      outgoingPush('invalid-f1', 'web'),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['unsubscribed', 'unsubscribed']);
    expect(gateways.sandbox.deliveries('unregistered-f1')).toEqual([]);
    expect(gateways.sandbox.attempts('invalid-f1').map((attempt) => attempt.status)).toEqual([400]);
  });

  it('answers failed, not unsubscribed, for a payload FCM rejects with INVALID_ARGUMENT', async () => {
    const [outcome] = await gateways.fcm.send([outgoingPush('badpayload-f1', 'android')]);
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('Invalid JSON payload') });
  });

  it('answers retry for a 503 at once, without firebase-admin retrying it inside the call (the pipeline backs off)', async () => {
    const [first] = await gateways.fcm.send([outgoingPush('flaky-f1', 'android')]);
    expect(first).toMatchObject({ kind: 'retry', reason: expect.stringContaining('server-unavailable') });
    expect(gateways.sandbox.attempts('flaky-f1').map((attempt) => attempt.status)).toEqual([503]);
    expect(await gateways.fcm.send([outgoingPush('flaky-f1', 'android')])).toEqual([{ kind: 'sent' }]);
    expect(gateways.sandbox.deliveries('flaky-f1')).toHaveLength(1);
  });

  it('fails rather than unsubscribes when FCM answers NOT_FOUND without UNREGISTERED: a project it does not know', async () => {
    // A service account with a wrong project_id: firebase-admin reads the 404 as not-registered, for every device.
    const wrongProject = createFcmGateway({
      appOptions: {
        projectId: 'missing-project',
        credential: { getAccessToken: async () => ({ access_token: 'token', expires_in: 3600 }) },
        httpAgent: sandboxFcmAgent(gateways.sandbox.port, '127.0.0.1'),
      },
      legacyHttpTransport: true,
    });
    try {
      expect(await wrongProject.send([outgoingPush('wrong-project-1', 'android')])).toEqual([
        {
          kind: 'failed',
          reason: expect.stringContaining('check the project_id of the service account'),
        },
      ]);
    } finally {
      await wrongProject.close();
    }
    // A token FCM says is gone still unsubscribes.
    expect(await gateways.fcm.send([outgoingPush('unregistered-still', 'android')])).toEqual([
      { kind: 'unsubscribed', reason: 'messaging/registration-token-not-registered' },
    ]);
  });

  it("answers retry for a 429 quota answer, after the answer's Retry-After (CONTRACTS §9)", async () => {
    const [outcome] = await gateways.fcm.send([outgoingPush('throttled-f1', 'android')]);
    expect(outcome).toEqual({
      kind: 'retry',
      reason: expect.stringContaining('message-rate-exceeded'),
      retryAfterMs: 1000,
    });
  });

  it('answers retry for every push when the gateway cannot be reached', async () => {
    await withUnreachableGateways(async (unreachable) => {
      const outcomes = await unreachable.fcm.send([outgoingPush('ok-f1', 'android'), outgoingPush('ok-f2', 'web')]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry', 'retry']);
    });
  });

  it('splits a batch over 500 into sendEach calls and keeps every outcome in input order', async () => {
    const tokens = Array.from({ length: 700 }, (_, index) =>
      index % 100 === 7 ? `unregistered-batch-${index}` : `batch-${index}`,
    );
    const outcomes = await gateways.fcm.send(tokens.map((token) => outgoingPush(token, 'android')));
    expect(outcomes).toHaveLength(700);
    tokens.forEach((token, index) => {
      expect(outcomes[index], token).toEqual(
        token.startsWith('unregistered-') ? expect.objectContaining({ kind: 'unsubscribed' }) : { kind: 'sent' },
      );
    });
    expect(tokens.filter((token) => gateways.sandbox.deliveries(token).length === 1)).toHaveLength(700 - 7);
  });
});
