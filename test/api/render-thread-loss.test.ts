import { beforeAll, expect, it, onTestFinished, vi } from 'vitest';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

/**
 * A render thread can die under a render (terminated, out of its heap) without the watchdog's doing: the devices of
 * its task are rendered again on the thread put in its place, and a device a thread died on twice fails; no push is
 * lost without a count. One thread and a bound far away, so that only the test stops the thread.
 */
const {
  harness,
  projects: { project },
} = useDeliveryHarness({
  configOverrides: { renderThreads: 1, renderTimeoutMs: 60_000 },
  projects: { project: 'team' },
});

const path = Array.from({ length: 512 }, () => 'a').join('.');
const bodiesTo = (token: string) =>
  harness.sandbox.deliveries(token).map((push: any) => push.payload.notification?.body);

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [
    // About 3 minutes for liquidjs: a thread renders it until the test stops that thread. First in the batch (devices go
    // in id order), so that a thread seen rendering is rendering this one.
    { id: 'a-costly', platform: 'android', token: 'costly-token', tags: { items: 1_000_000, path } },
    { id: 'b-modest', platform: 'android', token: 'modest-token', tags: { items: 3, path: 'a' } },
  ]);
});

it('renders the devices of a thread killed mid-render again on its replacement, and fails the device it died on twice', async () => {
  const renderer = harness.workers.context.renderer;
  const warn = vi.spyOn(harness.workers.context.log, 'warn');
  onTestFinished(() => warn.mockRestore());
  const id = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: ['a-costly', 'b-modest'],
    body: '{{ (1..device.tags.items) | has: device.tags.path }} for you',
  });

  for (let death = 1; death <= 2; death += 1) {
    await eventually(() => expect(renderer.rendering).toBe(1), 20_000, 5);
    const [thread] = renderer.threads;
    await thread!.terminate();
    // Replaced at once; on the first death the batch is rendered again there.
    await eventually(() => expect(renderer.threads).toHaveLength(1), 20_000, 5);
    expect(renderer.threads).not.toContain(thread);
  }

  const notification = await waitUntilCompleted(harness.ingress, project, id, 20_000);
  expect(notification.stats).toMatchObject({ targeted: 2, sent: 1, failed: 1 });
  expect(bodiesTo('modest-token')).toEqual(['false for you']);
  expect(bodiesTo('costly-token')).toEqual([]);
  expect(warn).toHaveBeenCalledWith(
    expect.objectContaining({ notificationId: id, failed: 1, reason: expect.stringMatching(/thread stopped twice/) }),
    'the message could not be rendered',
  );

  const normal = await sendNotification(harness.ingress, project, {
    targetType: 'device',
    targetIds: ['a-costly', 'b-modest'],
    body: 'all is well',
  });
  expect((await waitUntilCompleted(harness.ingress, project, normal)).stats).toMatchObject({ sent: 2, failed: 0 });
  expect(bodiesTo('costly-token')).toEqual(['all is well']);
}, 90_000);
