import { beforeAll, describe, expect, it } from 'vitest';
import { deliverJobId } from '../../src/queues/deliver.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

const {
  harness,
  projects: { throttled, unthrottled, paced, retrying },
} = useDeliveryHarness({ projects: { throttled: 'team', unthrottled: 'team', paced: 'team', retrying: 'team' } });

/** Android devices of one user, each with the token `${tokenPrefix}${id}`. */
const androidDevices = (ids: string[], tokenPrefix: string, userId: string) =>
  ids.map((id) => ({ id, platform: 'android' as const, token: `${tokenPrefix}${id}`, userId }));

const sendToUser = (project: Parameters<typeof sendNotification>[1], userId: string, body: string) =>
  sendNotification(harness.ingress, project, { targetType: 'userId', targetIds: [userId], body });

const setRate = (project: { projectId: string }, deliveryRatePerSecond: number) =>
  harness.ingress.context.models.Project.updateOne({ _id: project.projectId }, { $set: { deliveryRatePerSecond } });

beforeAll(async () => {
  await setRate(throttled, 0.25);
  await registerDevices(harness.ingress, throttled, [
    ...androidDevices(['t1', 't2', 't3', 't4'], 'slow-', 'tess'),
    { id: 't5', platform: 'android', token: 'slow-t5' },
  ]);
  await registerDevices(harness.ingress, unthrottled, [{ id: 'u1', platform: 'ios', token: 'fast-u1' }]);
});

// Each test paces a project of its own, and a project's rate holds up no other: they wait for their rates together.
describe('per-project delivery rate', () => {
  it.concurrent("delays a throttled project's batches without holding up another project", async () => {
    await sendToUser(throttled, 'tess', 'four messages');
    const delivered = (tokens: string[]) => tokens.flatMap((token) => harness.sandbox.deliveries(token));
    const burstTokens = ['slow-t1', 'slow-t2', 'slow-t3', 'slow-t4'];
    // Two of the four out, one every four seconds: the held batch waits for the other two, 8 s past the second, a
    // margin the other project's send keeps on a loaded machine.
    await eventually(() => expect(delivered(burstTokens).length).toBeGreaterThanOrEqual(2));
    const held = await sendNotification(harness.ingress, throttled, {
      targetType: 'device',
      targetIds: ['t5'],
      body: 'held back',
    });
    await eventually(async () => {
      const job = await harness.workers.context.queues.deliver.getJob(deliverJobId(held, 0));
      expect(await job?.getState()).toBe('delayed');
    });
    const other = await sendNotification(harness.ingress, unthrottled, {
      targetType: 'device',
      targetIds: ['u1'],
      body: 'not held',
    });
    await waitUntilCompleted(harness.ingress, unthrottled, other, 2000);
    expect(harness.sandbox.deliveries('fast-u1')).toHaveLength(1);
    expect((await readNotification(harness.ingress, throttled, held)).status).toBe('sending');
    expect(harness.sandbox.deliveries('slow-t5')).toEqual([]);

    await waitUntilCompleted(harness.ingress, throttled, held, 30_000);
    // One every four seconds, the held one included.
    const times = delivered([...burstTokens, 'slow-t5'])
      .map((delivery) => Date.parse(delivery.receivedAt))
      .sort();
    for (let index = 1; index < times.length; index++)
      expect(times[index]! - times[index - 1]!).toBeGreaterThanOrEqual(3600);
  });

  it.concurrent('spreads a batch over the rate, one second of it at most at once, rather than letting the whole batch out', async () => {
    await setRate(paced, 10);
    const devices = androidDevices(
      Array.from({ length: 40 }, (_, index) => `p${index}`),
      'paced-',
      'paula',
    );
    await registerDevices(harness.ingress, paced, devices);
    const id = await sendToUser(paced, 'paula', 'b');
    expect((await waitUntilCompleted(harness.ingress, paced, id, 15_000)).stats.sent).toBe(40);
    const times = devices.map((device) => Date.parse(harness.sandbox.deliveries(device.token)[0]!.receivedAt)).sort();
    // 40 at 10 a second, a second's worth at a time: three seconds from first to last.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(2800);
    // What goes out at once is the burst, one second's worth, where all 40 went out.
    expect(times.filter((time) => time < times[0]! + 500).length).toBeLessThanOrEqual(10);
  });

  it.concurrent('retries a refused push of a paced batch as often as an unpaced one: waiting for the rate spends no retry round', async () => {
    await setRate(retrying, 10);
    // One push in ten refused once (the sandbox answers a flaky- token 503, then takes it): at ten a second, one call
    // per run, a first refusal in each of 15 runs, more than a device has retry rounds.
    const devices = Array.from({ length: 150 }, (_, index) => {
      const id = `r${String(index).padStart(3, '0')}`;
      return {
        id,
        platform: 'android' as const,
        token: `${index % 10 === 0 ? 'flaky-' : ''}retrying-${id}`,
        userId: 'rory',
      };
    });
    await registerDevices(harness.ingress, retrying, devices);
    const id = await sendToUser(retrying, 'rory', 'b');
    // 15 s at the rate, however fast the machine; the rest is the machine's (over 60 s in all at load average 25).
    expect((await waitUntilCompleted(harness.ingress, retrying, id, 150_000)).stats).toEqual({
      targeted: 150,
      sent: 150,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
  }, 180_000);
});
