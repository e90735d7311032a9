import { describe, expect, it, onTestFinished } from 'vitest';
import { queueNames } from '../../src/infra/queue-names.ts';
import { startMongoGate } from '../support/mongo-gate.ts';
import { startIngress } from '../support/ingress.ts';
import { eventually } from '../support/eventually.ts';
import { deliverJobId } from '../../src/queues/deliver.ts';
import {
  registerDevices,
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';

const {
  harness,
  projects: { project },
} = useDeliveryHarness({ projects: { project: 'team' } });

const send = (body: unknown, headers?: Record<string, string>) =>
  sendNotification(harness.ingress, project, body, headers);
const completed = (id: string, timeoutMs?: number) => waitUntilCompleted(harness.ingress, project, id, timeoutMs);
const register = (devices: Parameters<typeof registerDevices>[2]) => registerDevices(harness.ingress, project, devices);
const deliveries = (token: string) => harness.sandbox.deliveries(token);
const payload = (token: string, index = 0) => deliveries(token)[index]?.payload as any;
const history = async (deviceId: string) =>
  (
    await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}/notification-history`, {
      key: project.apiKey,
    })
  ).body.data;
const device = async (deviceId: string) =>
  (
    await harness.ingress.request('GET', `/v1/projects/${project.projectId}/devices/${deviceId}`, {
      key: project.apiKey,
    })
  ).body.data;

describe('targets', () => {
  it('sends to one device with its title, body, url, image and data as FCM received them', async () => {
    await register([{ id: 'dev-android', platform: 'android', token: 'tok-android' }]);
    const id = await send({
      targetType: 'device',
      targetIds: ['dev-android'],
      title: 'Sale',
      body: 'Everything -20%',
      url: 'https://shop.example/sale',
      imageUrl: 'https://shop.example/sale.png',
      data: { campaign: 'spring', priority: 2 },
    });
    const notification = await completed(id);
    expect(notification.stats).toEqual({ targeted: 1, sent: 1, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    expect(deliveries('tok-android')).toHaveLength(1);
    expect(deliveries('tok-android')[0]!.gateway).toBe('fcm');
    expect(payload('tok-android')).toMatchObject({
      token: 'tok-android',
      notification: { title: 'Sale', body: 'Everything -20%' },
      data: {
        campaign: 'spring',
        priority: '2',
        notificationId: id,
        url: 'https://shop.example/sale',
        imageUrl: 'https://shop.example/sale.png',
      },
      android: { notification: { image: 'https://shop.example/sale.png' } },
    });
    const entries = await history('dev-android');
    expect(entries).toEqual([
      {
        notification: {
          id,
          createdAt: notification.createdAt,
          title: 'Sale',
          body: 'Everything -20%',
          url: 'https://shop.example/sale',
          imageUrl: 'https://shop.example/sale.png',
        },
        sentAt: expect.any(String),
      },
    ]);
  });

  it('sends to every subscribed device of a user: Android and web through FCM, iOS through APNs', async () => {
    await register([
      { id: 'alice-android', platform: 'android', token: 'alice-a', userId: 'alice' },
      { id: 'alice-ios', platform: 'ios', token: 'alice-i', userId: 'alice' },
      { id: 'alice-web', platform: 'web', token: 'alice-w', userId: 'alice' },
      { id: 'alice-old', platform: 'android', token: 'alice-old', userId: 'alice' },
      { id: 'bob-ios', platform: 'ios', token: 'bob-i', userId: 'bob' },
    ]);
    await harness.ingress.context.models.Device.updateOne(
      { projectId: project.projectId, deviceId: 'alice-old' },
      { $set: { isSubscribed: false } },
    );
    const id = await send({
      targetType: 'userId',
      targetIds: ['alice'],
      title: 'Hello',
      body: 'News',
      url: 'https://news.example/1',
      imageUrl: 'https://news.example/1.jpg',
      data: { article: '1' },
    });
    const notification = await completed(id);
    expect(notification.stats).toEqual({ targeted: 3, sent: 3, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 });
    expect(deliveries('alice-old')).toEqual([]);
    expect(deliveries('bob-i')).toEqual([]);
    expect(deliveries('alice-i')[0]!.gateway).toBe('apns');
    expect(payload('alice-i')).toMatchObject({
      aps: { alert: { title: 'Hello', body: 'News' }, sound: 'default', 'mutable-content': 1 },
      url: 'https://news.example/1',
      imageUrl: 'https://news.example/1.jpg',
      article: '1',
      notificationId: id,
    });
    expect(deliveries('alice-w')[0]!.gateway).toBe('fcm');
    expect(payload('alice-w')).toMatchObject({
      notification: { title: 'Hello', body: 'News' },
      data: { article: '1', notificationId: id },
      webpush: {
        notification: { image: 'https://news.example/1.jpg' },
        fcmOptions: { link: 'https://news.example/1' },
      },
    });
    expect(deliveries('alice-a')).toHaveLength(1);
  });

  it('completes a send to a user without devices with nothing targeted', async () => {
    const id = await send({ targetType: 'userId', targetIds: ['nobody-at-all'], body: 'x' });
    expect((await completed(id)).stats).toEqual({
      targeted: 0,
      sent: 0,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
  });
});

describe('templates and personalization', () => {
  it("replaces the request's content with the template's and renders it per device", async () => {
    await register([
      { id: 'p-1', platform: 'android', token: 'p-tok-1', userId: 'carol', tags: { name: 'Carol', tier: 'gold' } },
      { id: 'p-2', platform: 'ios', token: 'p-tok-2', userId: 'dave' },
    ]);
    const template = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/templates`, {
      key: project.apiKey,
      body: {
        name: 'offer',
        title: 'Hi {{ device.tags.name | default: "friend" }}',
        body: '{{ data.product }} for {{ device.userId }} ({{ device.tags.tier | default: "basic" }})',
        url: 'https://shop.example/{{ data.product }}?d={{ device.id }}',
        imageUrl: 'https://img.example/{{ data.product | downcase }}.png',
      },
    });
    const id = await send({
      targetType: 'device',
      targetIds: ['p-1', 'p-2'],
      templateId: template.body.data.id,
      title: 'ignored',
      body: 'ignored',
      data: { product: 'Shoes' },
    });
    const notification = await completed(id);
    // Every count, so that a failure says whether the devices were not targeted, not sent or failed.
    expect(notification).toMatchObject({
      title: 'Hi {{ device.tags.name | default: "friend" }}',
      stats: { targeted: 2, sent: 2, failed: 0, unsubscribed: 0 },
    });
    expect(payload('p-tok-1')).toMatchObject({
      notification: { title: 'Hi Carol', body: 'Shoes for carol (gold)' },
      data: { url: 'https://shop.example/Shoes?d=p-1', imageUrl: 'https://img.example/shoes.png', product: 'Shoes' },
    });
    expect(payload('p-tok-2')).toMatchObject({
      aps: { alert: { title: 'Hi friend', body: 'Shoes for dave (basic)' }, sound: 'default' },
      url: 'https://shop.example/Shoes?d=p-2',
    });
    const [entry] = await history('p-2');
    expect(entry.notification).toMatchObject({
      id,
      title: 'Hi friend',
      body: 'Shoes for dave (basic)',
      url: 'https://shop.example/Shoes?d=p-2',
      imageUrl: 'https://img.example/shoes.png',
    });
  });

  it('renders tags named by any string, including ones no device can have ($x, empty, edged with spaces)', async () => {
    await register([
      { id: 'odd-tags', platform: 'android', token: 'odd-tok', tags: { ' edged ': 'E', 'first name': 'Ada' } },
    ]);
    const body =
      '{{ device.tags[" edged "] }} {{ device.tags["first name"] }} [{{ device.tags["$x"] }}{{ device.tags[""] }}{{ device.tags["a.b"] }}]';
    const id = await send({ targetType: 'device', targetIds: ['odd-tags'], body });
    expect((await completed(id)).stats).toEqual({
      targeted: 1,
      sent: 1,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
    expect(payload('odd-tok').notification.body).toBe('E Ada []');
  });

  it('renders what Liquid reads of the tags as a whole, such as their size, as the preview does', async () => {
    const tags = { name: 'Ada', plan: 'pro', score: 7 };
    await register([{ id: 'tag-size', platform: 'android', token: 'tag-size-tok', tags }]);
    const body = '{{ device.tags.size }} tags, plan {{ device.tags.plan }}';
    const preview = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications/preview`, {
      key: project.apiKey,
      body: { deviceId: 'tag-size', body },
    });
    expect(preview.body.data.body).toBe('3 tags, plan pro');
    const id = await send({ targetType: 'device', targetIds: ['tag-size'], body });
    expect((await completed(id)).stats.sent).toBe(1);
    expect(payload('tag-size-tok').notification.body).toBe('3 tags, plan pro');
  });

  it('fails the devices whose body renders blank, and sends the others', async () => {
    await register([
      { id: 'blank-named', platform: 'android', token: 'blank-named-tok', tags: { name: 'Ada' } },
      { id: 'blank-nameless', platform: 'android', token: 'blank-nameless-tok' },
    ]);
    const id = await send({
      targetType: 'device',
      targetIds: ['blank-named', 'blank-nameless'],
      title: 'Hello',
      body: '  {{ device.tags.name }}{{ data.missing }}  ',
    });
    expect((await completed(id)).stats).toEqual({
      targeted: 2,
      sent: 1,
      failed: 1,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
    expect(payload('blank-named-tok').notification.body).toBe('  Ada  ');
    expect(deliveries('blank-nameless-tok')).toEqual([]);
  });

  it('fails only the devices whose rendering exceeds the limits, without stalling the worker', async () => {
    await register([{ id: 'hostile', platform: 'android', token: 'hostile-tok', tags: { steps: 100_000_000 } }]);
    const id = await send({
      targetType: 'device',
      targetIds: ['hostile'],
      // From the device's tags, which the render at save does not have: the delivery meets the limit.
      body: '{% for i in (1..device.tags.steps) %}{{ i }}{% endfor %}',
    });
    expect((await completed(id)).stats).toEqual({
      targeted: 1,
      sent: 0,
      failed: 1,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
    expect(deliveries('hostile-tok')).toEqual([]);
  });
});

describe('gateway answers (CONTRACTS §9)', () => {
  const dead = [
    {
      id: 'dead-fcm-unregistered',
      platform: 'android',
      token: 'unregistered-fcm',
      reason: 'registration-token-not-registered',
    },
    { id: 'dead-fcm-invalid', platform: 'web', token: 'invalid-fcm', reason: 'invalid-(registration-token|argument)' },
    { id: 'dead-apns-unregistered', platform: 'ios', token: 'unregistered-apns', reason: 'Unregistered' },
    { id: 'dead-apns-invalid', platform: 'ios', token: 'invalid-apns', reason: 'BadDeviceToken' },
  ] as const;

  it('unsubscribes a device on each of the four unsubscribe answers, writes no history and never targets it again', async () => {
    await register([...dead]);
    const id = await send({ targetType: 'device', targetIds: dead.map((entry) => entry.id), body: 'hello' });
    expect((await completed(id)).stats).toEqual({
      targeted: 4,
      sent: 0,
      failed: 0,
      unsubscribed: 4,
      capped: 0,
      clicked: 0,
    });
    for (const entry of dead) {
      expect(await device(entry.id)).toMatchObject({ id: entry.id, isSubscribed: false });
      const stored = await harness.ingress.context.models.Device.findOne({
        projectId: project.projectId,
        deviceId: entry.id,
      }).lean();
      expect(stored).toMatchObject({ rejectedPushToken: entry.token, unsubscribedAt: expect.any(Date) });
      expect(stored!.unsubscribeReason).toMatch(new RegExp(entry.reason, 'i'));
      expect(await history(entry.id)).toEqual([]);
    }
    const again = await send({ targetType: 'device', targetIds: dead.map((entry) => entry.id), body: 'hello again' });
    expect((await completed(again)).stats).toEqual({
      targeted: 0,
      sent: 0,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
    for (const entry of dead) expect(harness.sandbox.attempts(entry.token)).toHaveLength(1);
  });

  it('counts a bad payload as failed and keeps the device subscribed', async () => {
    await register([
      { id: 'bad-android', platform: 'android', token: 'badpayload-a' },
      { id: 'bad-ios', platform: 'ios', token: 'badpayload-i' },
    ]);
    const id = await send({ targetType: 'device', targetIds: ['bad-android', 'bad-ios'], body: 'x' });
    expect((await completed(id)).stats).toEqual({
      targeted: 2,
      sent: 0,
      failed: 2,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
    expect(await device('bad-android')).toMatchObject({ isSubscribed: true });
    expect(await device('bad-ios')).toMatchObject({ isSubscribed: true });
    expect(await history('bad-android')).toEqual([]);
  });

  it('retries a 503 and delivers once, without sending again to the devices of the batch already delivered', async () => {
    await register([
      { id: 'flaky-android', platform: 'android', token: 'flaky-a', userId: 'erin' },
      { id: 'steady-android', platform: 'android', token: 'steady-a', userId: 'erin' },
      { id: 'flaky-ios', platform: 'ios', token: 'flaky-i', userId: 'erin' },
      { id: 'steady-ios', platform: 'ios', token: 'steady-i', userId: 'erin' },
    ]);
    const id = await send({ targetType: 'userId', targetIds: ['erin'], body: 'retry me' });
    expect((await completed(id)).stats).toEqual({
      targeted: 4,
      sent: 4,
      failed: 0,
      unsubscribed: 0,
      capped: 0,
      clicked: 0,
    });
    for (const token of ['flaky-a', 'flaky-i']) {
      expect(harness.sandbox.attempts(token).map((attempt) => attempt.status)).toEqual([503, 200]);
    }
    for (const token of ['steady-a', 'steady-i']) expect(harness.sandbox.attempts(token)).toHaveLength(1);
    expect(await history('flaky-ios')).toHaveLength(1);
  });
});

describe('exactly once', () => {
  it('answers the same id for a repeated Idempotency-Key and delivers once', async () => {
    await register([{ id: 'idem', platform: 'ios', token: 'idem-tok' }]);
    const body = { targetType: 'device', targetIds: ['idem'], body: 'receipt' };
    const first = await send(body, { 'idempotency-key': 'receipt-1' });
    await completed(first);
    const second = await send(body, { 'idempotency-key': 'receipt-1' });
    expect(second).toBe(first);
    const third = await send(body, { 'idempotency-key': 'receipt-1' });
    expect(third).toBe(first);
    await completed(first);
    expect(deliveries('idem-tok')).toHaveLength(1);
  });
});

describe('reading a notification', () => {
  it('never shows a completed send with counts from before it completed', async () => {
    await register([{ id: 'read-late', platform: 'android', token: 'read-late-tok' }]);
    // The reader's notification query is held while the send completes, as a loaded server may answer it late.
    const gate = await startMongoGate(harness.config.mongoUrl);
    onTestFinished(() => gate.close());
    const reader = await startIngress({ ...harness.config, mongoUrl: gate.url });
    onTestFinished(() => reader.close());
    const deliverWorker = harness.workers.workers.find((worker) => worker.name === queueNames.deliver)!;
    await deliverWorker.pause();
    onTestFinished(() => deliverWorker.resume());
    const id = await send({ targetType: 'device', targetIds: ['read-late'], body: 'counted' });

    gate.hold('find', 'notifications');
    const read = readNotification(reader, project, id);
    await eventually(() => expect(gate.held()).toBe(1));
    deliverWorker.resume();
    await completed(id);
    gate.release();
    expect(await read).toMatchObject({ status: 'completed', stats: { targeted: 1, sent: 1 } });
  });
});

describe('what a send leaves in Redis', () => {
  it('keeps nothing of a delivered batch in Redis beside its job', async () => {
    await register([{ id: 'trace', platform: 'android', token: 'trace-tok' }]);
    const id = await send({ targetType: 'device', targetIds: ['trace'], body: 'no trace' });
    await completed(id);
    const { redis, queues } = harness.workers.context;
    const batchId = deliverJobId(id, 0);
    const keysNamingBatch = (await redis.keys(`${harness.config.queuePrefix}*`)).filter((key) =>
      key.split(/[:{}]/).includes(batchId),
    );
    expect(keysNamingBatch).toEqual([queues.deliver.toKey(batchId)]);
    expect(deliveries('trace-tok')).toHaveLength(1);
  });

  it('keeps no refused device in Redis once its send has completed, every one written by then', async () => {
    await register([
      { id: 'gone-1', platform: 'android', token: 'unregistered-gone-1' },
      { id: 'gone-2', platform: 'ios', token: 'unregistered-gone-2' },
    ]);
    const id = await send({ targetType: 'device', targetIds: ['gone-1', 'gone-2'], body: 'to no one' });
    expect((await completed(id)).stats).toMatchObject({ unsubscribed: 2 });
    expect(await device('gone-1')).toMatchObject({ isSubscribed: false });
    expect(await device('gone-2')).toMatchObject({ isSubscribed: false });
    const { redis } = harness.workers.context;
    expect(await redis.keys(`${harness.config.queuePrefix}:refusals:*`)).toEqual([]);
  });
});

describe('a send whose queueing answer was lost (no Idempotency-Key)', () => {
  /**
   * The ingress's add reaches Redis but its answer does not (a reply timed out): `afterAdd` runs once the job is in
   * the queue, before the add fails.
   */
  async function withLostAddAnswer(afterAdd: (jobId: string) => Promise<void>, use: () => Promise<void>) {
    const queue = harness.ingress.context.queues.send;
    const add = queue.add.bind(queue);
    queue.add = (async (...args: Parameters<typeof add>) => {
      const job = await add(...args);
      await afterAdd(job.id!);
      throw new Error('Command timed out');
    }) as typeof queue.add;
    try {
      await use();
    } finally {
      queue.add = add;
    }
  }

  it('answers the id when a worker has taken the job, and sends once', async () => {
    await register([{ id: 'lost-add', platform: 'android', token: 'lost-add-tok' }]);
    const queue = harness.ingress.context.queues.send;
    const takenByWorker = (jobId: string) =>
      eventually(async () =>
        expect(['active', 'waiting-children', 'completed']).toContain(await queue.getJobState(jobId)),
      );
    await withLostAddAnswer(takenByWorker, async () => {
      const id = await send({ targetType: 'device', targetIds: ['lost-add'], body: 'taken' });
      await completed(id);
      expect(deliveries('lost-add-tok')).toHaveLength(1);
    });
  });

  it('answers 503 and sends nothing when no worker has taken it yet', async () => {
    await register([{ id: 'lost-add-2', platform: 'android', token: 'lost-add-2-tok' }]);
    const sendWorker = harness.workers.workers.find((worker) => worker.name === queueNames.send)!;
    await sendWorker.pause();
    onTestFinished(() => sendWorker.resume());
    const queued: string[] = [];
    await withLostAddAnswer(
      async (jobId) => void queued.push(jobId),
      async () => {
        const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
          key: project.apiKey,
          body: { targetType: 'device', targetIds: ['lost-add-2'], body: 'not taken' },
        });
        expect(answer.status).toBe(503);
      },
    );
    expect(await harness.ingress.context.queues.send.getJob(queued[0]!)).toBeUndefined();
    expect(await harness.ingress.context.models.Notification.exists({ _id: queued[0] })).toBeNull();
  });
});

describe('scheduling', () => {
  it('holds a send with sendAt until that time', async () => {
    await register([{ id: 'later', platform: 'android', token: 'later-tok' }]);
    const sendAt = new Date(Date.now() + 1500);
    const id = await send({
      targetType: 'device',
      targetIds: ['later'],
      body: 'on time',
      sendAt: sendAt.toISOString(),
    });
    expect((await readNotification(harness.ingress, project, id)).status).toBe('queued');
    await completed(id);
    const [delivery] = deliveries('later-tok');
    expect(Date.parse(delivery!.receivedAt)).toBeGreaterThanOrEqual(sendAt.getTime());
  });
});
