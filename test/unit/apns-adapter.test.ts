import { randomUUID } from 'node:crypto';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sandboxCertificate } from '../../sandbox/certificate.ts';
import { useSandboxGateways, withGatewaysAt, withUnreachableGateways } from '../support/sandbox-gateways.ts';
import { outgoingPush } from '../support/outgoing-push.ts';
import { apnsNotificationFor } from '../../src/gateways/apns/apns-notification.ts';

const gateways = useSandboxGateways();

describe('APNs adapter against the sandbox', () => {
  it('delivers an iOS alert with title and body, mutable-content for the image, url, image and data beside aps', async () => {
    expect(await gateways.apns.send([outgoingPush('ios-1', 'ios')])).toEqual([{ kind: 'sent' }]);
    const [delivery] = gateways.sandbox.deliveries('ios-1');
    // The collapse id (the notification id) travels in the apns-collapse-id header: a repeat shows once.
    expect(delivery).toMatchObject({ gateway: 'apns', token: 'ios-1', collapseId: 'n-1' });
    expect(delivery!.payload).toEqual({
      aps: {
        alert: { title: 'Spring sale', body: 'Everything is 20% off today' },
        sound: 'default',
        'mutable-content': 1,
      },
      url: 'https://shop.example.com/sale',
      imageUrl: 'https://cdn.example.com/sale.png',
      campaign: 'spring',
      notificationId: 'n-1',
    });
  });

  it('asks APNs to keep a push for an offline device four weeks, as the other gateways do', () => {
    // node-apn sends expiry as the apns-expiration header.
    const { expiry } = apnsNotificationFor(outgoingPush('ios-expiry', 'ios'), 'com.example.app');
    const fourWeeks = Math.floor(Date.now() / 1000) + 28 * 24 * 3600;
    expect(expiry).toBeGreaterThanOrEqual(fourWeeks - 60);
    expect(expiry).toBeLessThanOrEqual(fourWeeks);
  });

  it("carries a journey send's id as its collapse id up to APNs' 64 bytes, and a 32-character form of a longer one", async () => {
    const fits = `j-${'a'.repeat(36)}-${'7'.repeat(20)}-3`;
    const tooLong = `j-${'a'.repeat(36)}-${'7'.repeat(30)}-3`;
    expect(
      await gateways.apns.send([
        outgoingPush('ios-collapse-fits', 'ios', { collapseId: fits }),
        outgoingPush('ios-collapse-long', 'ios', { collapseId: tooLong }),
      ]),
    ).toEqual([{ kind: 'sent' }, { kind: 'sent' }]);
    expect(gateways.sandbox.deliveries('ios-collapse-fits')[0]!.collapseId).toBe(fits);
    expect(gateways.sandbox.deliveries('ios-collapse-long')[0]!.collapseId).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('sends a body-only alert without mutable-content when there is no title or image', async () => {
    await gateways.apns.send([outgoingPush('ios-plain', 'ios', { title: null, imageUrl: null, url: null, data: {} })]);
    expect(gateways.sandbox.deliveries('ios-plain')[0]!.payload).toEqual({
      aps: { alert: { body: 'Everything is 20% off today' }, sound: 'default' },
    });
  });

  it('answers unsubscribed for 410 Unregistered and 400 BadDeviceToken', async () => {
    const outcomes = await gateways.apns.send([
      outgoingPush('unregistered-a1', 'ios'),
      outgoingPush('invalid-a1', 'ios'),
    ]);
    expect(outcomes).toEqual([
      { kind: 'unsubscribed', reason: 'Unregistered' },
      { kind: 'unsubscribed', reason: 'BadDeviceToken' },
    ]);
    expect(gateways.sandbox.attempts('unregistered-a1').map((attempt) => attempt.status)).toEqual([410]);
  });

  it('answers failed, not unsubscribed, for a payload APNs refuses', async () => {
    expect(await gateways.apns.send([outgoingPush('badpayload-a1', 'ios')])).toEqual([
      { kind: 'failed', reason: '413 PayloadTooLarge' },
    ]);
    const huge = outgoingPush('ios-huge', 'ios', { body: 'x'.repeat(5000) });
    expect(await gateways.apns.send([huge])).toEqual([{ kind: 'failed', reason: '413 PayloadTooLarge' }]);
  });

  it('answers retry on a 503 and sent on the next call, leaving the backoff to the caller', async () => {
    expect(await gateways.apns.send([outgoingPush('flaky-a1', 'ios')])).toEqual([
      { kind: 'retry', reason: '503 ServiceUnavailable' },
    ]);
    expect(await gateways.apns.send([outgoingPush('flaky-a1', 'ios')])).toEqual([{ kind: 'sent' }]);
    expect(gateways.sandbox.attempts('flaky-a1').map((attempt) => attempt.status)).toEqual([503, 200]);
    expect(gateways.sandbox.deliveries('flaky-a1')).toHaveLength(1);
  });

  it('answers retry on 429', async () => {
    expect(await gateways.apns.send([outgoingPush('throttled-a1', 'ios')])).toEqual([
      { kind: 'retry', reason: '429 TooManyRequests' },
    ]);
  });

  it('answers retry when APNs cannot be reached', async () => {
    await withUnreachableGateways(async (unreachable) => {
      const outcomes = await unreachable.apns.send([outgoingPush('ios-a2', 'ios'), outgoingPush('ios-a3', 'ios')]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry', 'retry']);
    });
  });

  it("waits past node-apn's 5 s for a sandbox answer a loaded machine gives late, rather than sending the push again", async () => {
    const answerAfterMs = 6_000;
    const lateSandbox = createSecureServer(sandboxCertificate(), (request, response) => {
      request.resume();
      request.on('end', () =>
        setTimeout(() => response.writeHead(200, { 'apns-id': randomUUID() }).end(), answerAfterMs),
      );
    });
    await new Promise<void>((resolve) => lateSandbox.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => lateSandbox.close(() => resolve())));
    await withGatewaysAt((lateSandbox.address() as AddressInfo).port, async (late) => {
      expect(await late.apns.send([outgoingPush('ios-late', 'ios')])).toEqual([{ kind: 'sent' }]);
    });
  });

  it('keeps outcomes in input order across a mixed batch', async () => {
    const tokens = Array.from({ length: 600 }, (_, index) =>
      index % 50 === 3 ? `invalid-mixed-${index}` : `mixed-${index}`,
    );
    const outcomes = await gateways.apns.send(tokens.map((token) => outgoingPush(token, 'ios')));
    tokens.forEach((token, index) => {
      expect(outcomes[index], token).toEqual(
        token.startsWith('invalid-') ? expect.objectContaining({ kind: 'unsubscribed' }) : { kind: 'sent' },
      );
    });
  });
});
