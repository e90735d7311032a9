import { expect, it } from 'vitest';
import {
  deliveriesReached,
  expectEveryDeviceDelivered,
  startSegmentSend,
  useFaultHarness,
} from '../support/fault-harness.ts';
import { gatewayCallSize } from '../../src/delivery/delivery-run.ts';
import type { Delivery } from '../../sandbox/delivery-log.ts';

const devices = 10_000;
const deliverConcurrency = 16;
// A short lock, so that the killed worker's batches are found stalled and handed on within seconds.
const harness = useFaultHarness({
  workerEnv: {
    WORKER_LOCK_DURATION_MS: '5000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    DELIVER_CONCURRENCY: String(deliverConcurrency),
  },
});

/** The collapse id a delivery carries, and the one it should: the notification id, or a Web Push Topic's form of it. */
function collapseIds(delivery: Delivery, notificationId: string): { carried?: string; expected: string } {
  const payload = delivery.payload as {
    android?: { collapse_key?: string };
    webpush?: { headers?: { Topic?: string } };
  };
  const topic = delivery.gateway === 'webpush' ? delivery.collapseId : payload.webpush?.headers?.Topic;
  if (topic !== undefined) return { carried: topic, expected: notificationId.replace(/-/g, '') };
  return { carried: delivery.collapseId ?? payload.android?.collapse_key, expected: notificationId };
}

/*
 * Exactly once is impossible across kill -9: neither FCM nor APNs takes an idempotency key, so a push the gateway
 * accepted just before the kill, whose outcome the worker had not saved yet, is sent again by the recovered job.
 * The deliver worker saves outcomes after every gateway call of `gatewayCallSize` pushes, so what is guaranteed is:
 * no device is lost, the stats and history count each device once, and at most one call per job the killed process
 * had in flight is repeated: deliverConcurrency × gatewayCallSize devices (16 × 100). A repeat carries the
 * notification id as its collapse id, so the phone shows one notification.
 */
it('kill -9 of the delivery worker during a segment send: a new worker finishes it, no device lost, repeats bounded and collapsible', async () => {
  const { project, tokens, id, deliverWorker: first } = await startSegmentSend(harness, devices);

  await deliveriesReached(harness, devices / 4);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  expect(harness.sandbox.deliveries().length).toBeLessThan(devices);
  await harness.startWorker('deliver');

  const doubled = await expectEveryDeviceDelivered(harness, project, id, tokens, {
    maxDoubled: deliverConcurrency * gatewayCallSize,
  });
  for (const token of doubled)
    for (const delivery of harness.sandbox.deliveries(token)) {
      const { carried, expected } = collapseIds(delivery, id);
      expect(carried).toBe(expected);
    }
}, 150_000);
