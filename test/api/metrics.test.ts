import { describe, expect, it } from 'vitest';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { failureOf, historyWritesRefused, takeOverDeliveries } from '../support/manual-deliveries.ts';
import { deliverProcessor } from '../../src/delivery/deliver-processor.ts';
import { createGatewayProvider } from '../../src/gateways/create-gateway-provider.ts';

const adminToken = 'metrics-admin-token';
const { harness } = useDeliveryHarness({ configOverrides: { adminToken } });

/** Prometheus text format: `name{label="value",...} number` lines, keyed by everything before the number. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${harness.ingress.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const counter = (gateway: string, result: string) => `push_deliveries_total{gateway="${gateway}",result="${result}"}`;

describe('/metrics', () => {
  it('counts pushes by gateway and outcome, gateway latency, queue sizes and request durations as pushes go out', async () => {
    const before = await scrape();
    for (const gateway of ['fcm', 'apns']) {
      for (const result of ['sent', 'failed', 'unsubscribed', 'retried'])
        expect(before.get(counter(gateway, result))).toBe(0);
    }
    expect(before.get('push_queue_jobs{queue="deliver",state="completed"}')).toBe(0);

    const project = await harness.ingress.createProject('team');
    await registerDevices(harness.ingress, project, [
      { id: 'm-a1', platform: 'android', token: 'm-a1' },
      { id: 'm-a2', platform: 'web', token: 'm-a2' },
      { id: 'm-flaky', platform: 'ios', token: 'flaky-m' },
      { id: 'm-i1', platform: 'ios', token: 'm-i1' },
      { id: 'm-gone', platform: 'ios', token: 'unregistered-m' },
      { id: 'm-bad', platform: 'ios', token: 'badpayload-m' },
    ]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['m-a1', 'm-a2', 'm-flaky', 'm-i1', 'm-gone', 'm-bad'],
      body: 'counted',
    });
    await waitUntilCompleted(harness.ingress, project, id);

    const after = await scrape();
    expect(after.get(counter('fcm', 'sent'))).toBe(2);
    expect(after.get(counter('apns', 'sent'))).toBe(2);
    expect(after.get(counter('apns', 'retried'))).toBe(1);
    expect(after.get(counter('apns', 'unsubscribed'))).toBe(1);
    expect(after.get(counter('apns', 'failed'))).toBe(1);
    // APNs: the first call and the retry round of the flaky device; FCM: one call.
    expect(after.get('push_gateway_send_duration_seconds_count{gateway="apns"}')).toBe(2);
    expect(after.get('push_gateway_send_duration_seconds_bucket{gateway="apns",le="+Inf"}')).toBe(2);
    // Cumulative, as Prometheus reads buckets: every call of under 30 s is in the 30 s bucket too.
    expect(after.get('push_gateway_send_duration_seconds_bucket{gateway="apns",le="30"}')).toBe(2);
    expect(after.get('push_gateway_send_duration_seconds_count{gateway="fcm"}')).toBe(1);
    expect(after.get('push_gateway_send_duration_seconds_sum{gateway="fcm"}')).toBeGreaterThan(0);
    // The two batches, and the job that wrote the refused devices the APNs batch handed off.
    expect(after.get('push_queue_jobs{queue="deliver",state="completed"}')).toBe(3);
    expect(after.get('push_queue_jobs{queue="send",state="completed"}')).toBe(1);
    const postCount =
      'http_request_duration_seconds_count{method="POST",route="/v1/projects/:projectId/notifications",status="200"}';
    expect(after.get(postCount)).toBe(1);
    const registrations =
      'http_request_duration_seconds_count{method="PUT",route="/v1/sdk/projects/:projectId/devices/:deviceId",status="200"}';
    expect(after.get(registrations)).toBe(6);
  });

  it('counts a push once when the run that sent it could not write its history (MongoDB away) and the next run did', async () => {
    const deliveries = await takeOverDeliveries(harness);
    const { models } = harness.workers.context;
    const gateways = createGatewayProvider(harness.config, models);
    try {
      const before = await scrape();
      const project = await harness.ingress.createProject('team');
      await registerDevices(harness.ingress, project, [
        { id: 'away-1', platform: 'android', token: 'away-1' },
        { id: 'away-2', platform: 'android', token: 'away-2' },
      ]);
      const id = await sendNotification(harness.ingress, project, {
        targetType: 'device',
        targetIds: ['away-1', 'away-2'],
        body: 'counted once',
      });
      const job = await deliveries.takeNext('away');
      const failure = await failureOf(
        deliverProcessor({ ...harness.workers.context, models: historyWritesRefused(models), gateways })(job, 'away'),
      );
      expect(failure.message).toBe('history write refused');
      await job.moveToFailed(failure, 'away');
      deliveries.resume();
      expect((await waitUntilCompleted(harness.ingress, project, id)).stats).toMatchObject({ sent: 2 });
      for (const token of ['away-1', 'away-2']) expect(harness.sandbox.deliveries(token)).toHaveLength(1);
      const after = await scrape();
      expect(after.get(counter('fcm', 'sent'))! - before.get(counter('fcm', 'sent'))!).toBe(2);
    } finally {
      await deliveries.close();
      await gateways.close();
    }
  });
});
