import { beforeAll, describe, expect, it } from 'vitest';
import { databaseSegmentResolver } from '../../src/targets/segment-resolver.ts';
import { eventually } from '../support/eventually.ts';
import {
  readNotification,
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ projects: { project: 'team' } });

const tokens = ['seg-pro-high', 'seg-pro-low', 'seg-free-high', 'seg-free-low', 'seg-pro-off'];

beforeAll(async () => {
  await registerDevices(harness.ingress, project, [
    { id: 'pro-high', platform: 'android', token: 'seg-pro-high', tags: { plan: 'pro', score: 90 } },
    { id: 'pro-low', platform: 'ios', token: 'seg-pro-low', tags: { plan: 'pro', score: 10 } },
    { id: 'free-high', platform: 'web', token: 'seg-free-high', tags: { plan: 'free', score: 95 } },
    { id: 'free-low', platform: 'android', token: 'seg-free-low', tags: { plan: 'free', score: 5 } },
    { id: 'pro-off', platform: 'android', token: 'seg-pro-off', tags: { plan: 'pro', score: 99 } },
  ]);
  await harness.ingress.context.models.Device.updateOne(
    { projectId: project.projectId, deviceId: 'pro-off' },
    { $set: { isSubscribed: false } },
  );
});

async function createSegment(conditions: object[]): Promise<string> {
  const response = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
    key: project.apiKey,
    body: { name: 's', match: 'all', conditions },
  });
  expect(response.status).toBe(200);
  return response.body.data.id;
}

const receivedBy = (notificationId: string) =>
  Object.fromEntries(
    tokens.map((token) => [
      token,
      harness.sandbox.deliveries(token).filter((delivery) => JSON.stringify(delivery.payload).includes(notificationId))
        .length,
    ]),
  );

describe('segment sends', () => {
  it('reaches exactly the subscribed devices that match, rendered per device', async () => {
    const pro = await createSegment([{ tag: 'plan', op: 'eq', value: 'pro' }]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'segment',
      targetIds: [pro],
      body: 'Score {{ device.tags.score }}',
    });
    const notification = await waitUntilCompleted(harness.ingress, project, id);
    expect(notification.stats).toEqual({ targeted: 2, sent: 2, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    expect(receivedBy(id)).toEqual({
      'seg-pro-high': 1,
      'seg-pro-low': 1,
      'seg-free-high': 0,
      'seg-free-low': 0,
      'seg-pro-off': 0,
    });
    expect((harness.sandbox.deliveries('seg-pro-high').at(-1)!.payload as any).notification.body).toBe('Score 90');
  });

  it('sends one push to a device that is in two of the segments', async () => {
    const pro = await createSegment([{ tag: 'plan', op: 'eq', value: 'pro' }]);
    const high = await createSegment([{ tag: 'score', op: 'gte', value: 50 }]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'segment',
      targetIds: [pro, high],
      body: 'Union',
    });
    const notification = await waitUntilCompleted(harness.ingress, project, id);
    expect(notification.stats).toEqual({ targeted: 3, sent: 3, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    expect(receivedBy(id)).toEqual({
      'seg-pro-high': 1,
      'seg-pro-low': 1,
      'seg-free-high': 1,
      'seg-free-low': 0,
      'seg-pro-off': 0,
    });
  });

  it('fails a send, sending nothing, when one of its segments was deleted before it started', async () => {
    const pro = await createSegment([{ tag: 'plan', op: 'eq', value: 'pro' }]);
    const free = await createSegment([{ tag: 'plan', op: 'eq', value: 'free' }]);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'segment',
      targetIds: [pro, free],
      body: 'Scheduled',
      sendAt: new Date(Date.now() + 2000).toISOString(),
    });
    const deleted = await harness.ingress.request('DELETE', `/v1/projects/${project.projectId}/segments/${free}`, {
      key: project.apiKey,
    });
    expect(deleted.status).toBe(200);
    const notification = await eventually(async () => {
      const read = await readNotification(harness.ingress, project, id);
      expect(read.status).toBe('failed');
      return read;
    });
    expect(notification.stats).toEqual({ targeted: 0, sent: 0, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    expect(Object.values(receivedBy(id))).toEqual([0, 0, 0, 0, 0]);
  });

  it('streams the union in _id order and resumes after a given device without repeating anyone', async () => {
    const resolver = databaseSegmentResolver(harness.workers.context);
    const pro = await createSegment([{ tag: 'plan', op: 'eq', value: 'pro' }]);
    const high = await createSegment([{ tag: 'score', op: 'gte', value: 50 }]);
    const read = async (afterId: string | null) => {
      const ids: string[] = [];
      for await (const device of resolver.cursorFor(project.projectId, [pro, high], {
        afterId,
        projection: { deviceId: 1 },
      }))
        ids.push(String(device._id));
      return ids;
    };
    const all = await read(null);
    expect(all).toEqual([...all].sort());
    expect(all.map((id) => id.split(':')[1])).toEqual(['free-high', 'pro-high', 'pro-low']);
    expect(await read(all[0]!)).toEqual(all.slice(1));
  });
});
