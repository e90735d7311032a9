import { describe, expect, it } from 'vitest';
import {
  readNotification,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
} from '../support/delivery-harness.ts';
import { listedTargetsQueries, targetCursor } from '../../src/targets/target-cursor.ts';
import { databaseSegmentResolver } from '../../src/targets/segment-resolver.ts';
import { deviceKey } from '../../src/models/device.ts';
import { targetProjection } from '../../src/targets/target-device.ts';

const {
  harness,
  projects: { project, throttled },
} = useDeliveryHarness({ projects: { project: 'team', throttled: 'team' } });

const send = (body: unknown) => sendNotification(harness.ingress, project, body);
const completed = (id: string) => waitUntilCompleted(harness.ingress, project, id);
const deliveries = (token: string) => harness.sandbox.deliveries(token);
const only = (token: string) => {
  const found = deliveries(token);
  expect(found).toHaveLength(1);
  return found[0]! as { gateway: string; payload: any; headers: Record<string, string> };
};

async function register(
  target: { projectId: string; clientKey: string },
  id: string,
  body: Record<string, unknown>,
): Promise<void> {
  const answer = await harness.ingress.request('PUT', `/v1/sdk/projects/${target.projectId}/devices/${id}`, {
    key: target.clientKey,
    body,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function webPushSubscription() {
  const response = await fetch(`http://127.0.0.1:${harness.sandbox.port}/webpush/subscriptions`, { method: 'POST' });
  return (await response.json()) as { endpoint: string; keys: { p256dh: string; auth: string } };
}

const everyOption = {
  ttl: 600,
  priority: 'normal',
  collapseId: 'promo-1',
  buttons: [
    { id: 'buy', text: 'Buy, {{ data.name }}', url: 'https://shop.example/buy?u={{ device.id }}' },
    { id: 'later', text: 'Later' },
  ],
  badge: 3,
  sound: 'chime.caf',
  androidChannelId: 'sales',
};

describe('message options reach each gateway in its documented form (CONTRACTS §14)', () => {
  it('maps ttl, priority, collapse id, buttons, badge, sound and channel to FCM, APNs and Web Push', async () => {
    const subscription = await webPushSubscription();
    await register(project, 'opt-android', { platform: 'android', pushToken: 'opt-android', userId: 'opt' });
    await register(project, 'opt-ios', { platform: 'ios', pushToken: 'opt-ios', userId: 'opt' });
    await register(project, 'opt-webfcm', { platform: 'web', pushToken: 'opt-webfcm', userId: 'opt' });
    await register(project, 'opt-webpush', { platform: 'web', webPush: subscription, userId: 'opt' });
    const id = await send({
      targetType: 'userId',
      targetIds: ['opt'],
      title: 'Sale',
      body: 'Everything -20%',
      data: { name: 'Ana' },
      ...everyOption,
    });
    const view = await completed(id);
    expect(view.stats).toMatchObject({ targeted: 4, sent: 4, failed: 0 });
    expect(view).toMatchObject(everyOption);

    const buttonsFor = (deviceId: string) => [
      { id: 'buy', text: 'Buy, Ana', url: `https://shop.example/buy?u=${deviceId}` },
      { id: 'later', text: 'Later' },
    ];
    const android = only('opt-android').payload;
    expect(android.android).toEqual({
      ttl: '600s',
      priority: 'normal',
      collapse_key: 'promo-1',
      notification: { tag: 'promo-1', notification_count: 3, sound: 'chime.caf', channel_id: 'sales' },
    });
    expect(JSON.parse(android.data.buttons)).toEqual(buttonsFor('opt-android'));

    const webFcm = only('opt-webfcm').payload;
    // A Topic takes only the URL-safe base64 alphabet: the collapse id's form that fits, as for a notification id.
    expect(webFcm.webpush.headers).toEqual({ Topic: 'promo1', TTL: '600', Urgency: 'normal' });

    const ios = only('opt-ios');
    expect(ios.headers).toMatchObject({
      'apns-priority': '5',
      'apns-collapse-id': 'promo-1',
      'apns-push-type': 'alert',
    });
    const expiration = Number(ios.headers['apns-expiration']);
    expect(Math.abs(expiration - (Math.floor(Date.now() / 1000) + 600))).toBeLessThan(60);
    expect(ios.payload.aps).toMatchObject({ badge: 3, sound: 'chime.caf', category: 'pushengine.buttons' });
    expect(JSON.parse(ios.payload.buttons)).toEqual(buttonsFor('opt-ios'));

    const web = only(subscription.endpoint);
    expect(web.headers).toEqual({ ttl: '600', urgency: 'normal', topic: 'promo1' });
    expect(web.payload.buttons).toEqual(buttonsFor('opt-webpush'));
  });

  it('sends an APNs ttl of 0 as apns-expiration 0, deliver now or never', async () => {
    await register(project, 'now-ios', { platform: 'ios', pushToken: 'now-ios' });
    await completed(await send({ targetType: 'device', targetIds: ['now-ios'], body: 'now', ttl: 0 }));
    expect(only('now-ios').headers['apns-expiration']).toBe('0');
  });

  it('leaves a message without options as it was: no option in the view, today’s defaults at the gateways', async () => {
    await register(project, 'plain-ios', { platform: 'ios', pushToken: 'plain-ios' });
    const view = await completed(await send({ targetType: 'device', targetIds: ['plain-ios'], body: 'plain' }));
    expect(Object.keys(view).sort()).toEqual([
      'body',
      'createdAt',
      'id',
      'imageUrl',
      'stats',
      'status',
      'title',
      'url',
    ]);
    const { headers, payload } = only('plain-ios');
    expect(headers['apns-priority']).toBe('10');
    expect(payload.aps.sound).toBe('default');
    expect(payload.aps.category).toBeUndefined();
  });
});

describe('localizations (CONTRACTS §14)', () => {
  it('gives a ko device Korean, a pt-BR device Portuguese, and an en or language-less device the message’s own', async () => {
    const devices = { ko: 'ko', 'pt-BR': 'pt-BR', en: 'en', none: null };
    for (const [name, language] of Object.entries(devices))
      await register(project, `lang-${name}`, {
        platform: 'android',
        pushToken: `lang-${name}`,
        userId: 'polyglot',
        language,
      });
    const id = await send({
      targetType: 'userId',
      targetIds: ['polyglot'],
      title: 'Hello',
      body: 'Your order shipped',
      url: 'https://shop.example/en',
      localizations: {
        ko: { title: '안녕하세요', body: '주문이 발송되었습니다 {{ device.id }}' },
        pt: { body: 'Seu pedido foi enviado', url: 'https://shop.example/pt' },
      },
    });
    expect((await completed(id)).stats).toMatchObject({ targeted: 4, sent: 4 });
    const shown = (token: string) => {
      const { notification, data } = only(token).payload;
      return { ...notification, url: data.url };
    };
    expect(shown('lang-ko')).toEqual({
      title: '안녕하세요',
      body: '주문이 발송되었습니다 lang-ko',
      url: 'https://shop.example/en',
    });
    expect(shown('lang-pt-BR')).toEqual({
      title: 'Hello',
      body: 'Seu pedido foi enviado',
      url: 'https://shop.example/pt',
    });
    for (const token of ['lang-en', 'lang-none'])
      expect(shown(token)).toEqual({ title: 'Hello', body: 'Your order shipped', url: 'https://shop.example/en' });
  });
});

describe('the per-device preview of a message with localizations', () => {
  it('renders the language the device would get, and says which', async () => {
    await register(project, 'preview-pt', { platform: 'android', pushToken: 'preview-pt', language: 'pt-BR' });
    await register(project, 'preview-en', { platform: 'android', pushToken: 'preview-en', language: 'en' });
    const preview = (deviceId: string) =>
      harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications/preview`, {
        key: project.apiKey,
        body: {
          deviceId,
          title: 'Hi',
          body: 'Hello {{ device.id }}',
          localizations: { pt: { body: 'Olá {{ device.id }}' } },
        },
      });
    expect((await preview('preview-pt')).body.data).toEqual({
      title: 'Hi',
      body: 'Olá preview-pt',
      url: null,
      imageUrl: null,
      language: 'pt',
    });
    expect((await preview('preview-en')).body.data).toEqual({
      title: 'Hi',
      body: 'Hello preview-en',
      url: null,
      imageUrl: null,
    });
  });
});

describe('platforms and silent narrow the audience in the query (CONTRACTS §14)', () => {
  it('reaches only the iOS devices of a mixed segment with platforms ["ios"], and counts only them', async () => {
    for (const platform of ['android', 'ios', 'web'] as const)
      for (const n of [1, 2])
        await register(project, `mix-${platform}-${n}`, {
          platform,
          pushToken: `mix-${platform}-${n}`,
          tags: { mix: 'yes' },
        });
    const segment = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
      key: project.apiKey,
      body: { name: 'mixed', match: 'all', conditions: [{ tag: 'mix', op: 'eq', value: 'yes' }] },
    });
    expect(segment.status).toBe(200);
    const id = await send({
      targetType: 'segment',
      targetIds: [segment.body.data.id],
      body: 'iOS only',
      platforms: ['ios'],
    });
    expect((await completed(id)).stats).toMatchObject({ targeted: 2, sent: 2, failed: 0 });
    for (const n of [1, 2]) {
      expect(only(`mix-ios-${n}`).gateway).toBe('apns');
      expect(deliveries(`mix-android-${n}`)).toEqual([]);
      expect(deliveries(`mix-web-${n}`)).toEqual([]);
    }
  });

  it('reads only the devices of the platforms sent to, for a send to users or to devices', async () => {
    for (const user of ['narrow-a', 'narrow-b'])
      for (const platform of ['android', 'ios', 'web'] as const)
        await register(project, `${user}-${platform}`, { platform, pushToken: `${user}-${platform}`, userId: user });
    const targets = [
      { targetType: 'userId', targetIds: ['narrow-a', 'narrow-b'] },
      { targetType: 'device', targetIds: ['narrow-a-ios', 'narrow-a-web', 'narrow-b-android'] },
    ] as const;
    const { models } = harness.ingress.context;
    for (const { targetType, targetIds } of targets) {
      const queries = listedTargetsQueries(
        models,
        { projectId: project.projectId, targetType, targetIds: [...targetIds] },
        { afterId: null, projection: targetProjection([]), platforms: ['ios'] },
      );
      const read = (await Promise.all(queries.map((query) => query.clone().exec()))).flat();
      expect(read.map((device) => device.deviceId).sort()).toEqual(
        targetType === 'userId' ? ['narrow-a-ios', 'narrow-b-ios'] : ['narrow-a-ios'],
      );
      if (targetType === 'userId')
        for (const query of queries) {
          const { executionStats } = (await query.clone().explain('executionStats')) as unknown as {
            executionStats: { nReturned: number; totalDocsExamined: number };
          };
          expect(executionStats.totalDocsExamined).toBe(executionStats.nReturned);
        }
      const id = await send({ targetType, targetIds, body: 'iOS only', platforms: ['ios'] });
      expect((await completed(id)).stats).toMatchObject({ targeted: read.length, sent: read.length });
    }
    // The users' queries stream as one in _id order, which a resumed fan-out continues after its last device.
    const streamed = async (afterId: string | null) => {
      const ids: string[] = [];
      const targets = {
        projectId: project.projectId,
        targetType: 'userId' as const,
        targetIds: ['narrow-b', 'narrow-a'],
      };
      const query = { afterId, projection: targetProjection([]), platforms: ['android' as const, 'ios' as const] };
      for await (const device of targetCursor(models, databaseSegmentResolver(harness.ingress.context), targets, query))
        ids.push(device.deviceId);
      return ids;
    };
    expect(await streamed(null)).toEqual(['narrow-a-android', 'narrow-a-ios', 'narrow-b-android', 'narrow-b-ios']);
    expect(await streamed(deviceKey(project.projectId, 'narrow-a-ios'))).toEqual(['narrow-b-android', 'narrow-b-ios']);
  });

  it('sends a silent push to iOS as a background push and to Android as data only, and to no web device', async () => {
    for (const platform of ['android', 'ios', 'web'] as const)
      await register(project, `quiet-${platform}`, { platform, pushToken: `quiet-${platform}`, userId: 'quiet' });
    const id = await send({ targetType: 'userId', targetIds: ['quiet'], silent: true, data: { sync: 'inbox' } });
    const view = await completed(id);
    expect(view.stats).toMatchObject({ targeted: 2, sent: 2, failed: 0 });
    expect(view.silent).toBe(true);
    const ios = only('quiet-ios');
    expect(ios.headers).toMatchObject({ 'apns-push-type': 'background', 'apns-priority': '5' });
    expect(ios.payload).toEqual({ aps: { 'content-available': 1 }, sync: 'inbox', notificationId: id });
    const android = only('quiet-android').payload;
    expect(android.notification).toBeUndefined();
    expect(android.android?.notification).toBeUndefined();
    expect(android.data).toEqual({ sync: 'inbox', notificationId: id });
    expect(deliveries('quiet-web')).toEqual([]);
  });
});

describe('a push held past its ttl (CONTRACTS §14)', () => {
  it('is not sent and counts as failed, once a paused delivery rate held it longer than its ttl', async () => {
    await harness.ingress.context.models.Project.updateOne(
      { _id: throttled.projectId },
      { $set: { deliveryRatePerSecond: 0.5 } },
    );
    for (const n of [1, 2, 3])
      await register(throttled, `held-${n}`, { platform: 'android', pushToken: `held-${n}`, userId: 'held' });
    const id = await sendNotification(harness.ingress, throttled, {
      targetType: 'userId',
      targetIds: ['held'],
      body: 'flash sale, one second only',
      ttl: 1,
    });
    const view = await waitUntilCompleted(harness.ingress, throttled, id, 20_000);
    const delivered = [1, 2, 3].flatMap((n) => deliveries(`held-${n}`));
    expect(view.stats.sent + view.stats.failed).toBe(3);
    expect(view.stats.failed).toBeGreaterThanOrEqual(2);
    expect(delivered).toHaveLength(view.stats.sent);
  });
});

describe('bad options (CONTRACTS §1, §14)', () => {
  const base = { targetType: 'device', targetIds: ['nobody'], body: 'hi' };
  it.each([
    ['/buttons', { buttons: [1, 2, 3].map((n) => ({ id: `b${n}`, text: `B${n}` })) }],
    ['/ttl', { ttl: 2_419_201 }],
    ['/priority', { priority: 'urgent' }],
    ['/collapseId', { collapseId: 'c'.repeat(65) }],
    ['/body', { silent: true, data: { a: 1 } }],
    ['/platforms', { platforms: [] }],
    ['/localizations/en_US!', { localizations: { 'en_US!': { body: 'hi' } } }],
    ['/buttons/0/text', { buttons: [{ id: 'b', text: '{{ unclosed' }] }],
    ['/localizations/ko/body', { localizations: { ko: { body: '{% if %}' } } }],
    ['/data', { silent: true, body: undefined }],
    // Buttons and the largest localization count toward the gateways' 4 KB as the content does.
    [
      '/buttons/1',
      { buttons: ['a', 'b'].map((id) => ({ id, text: id, url: `https://x.example/${'p'.repeat(2020)}` })) },
    ],
    [
      '/localizations/ko/body',
      { localizations: { en: { body: 'hi' }, ko: { title: 't'.repeat(200), body: '가'.repeat(1400) } } },
    ],
  ])('refuses %s with a 400 naming it, and stores nothing', async (path, fields) => {
    const before = await harness.ingress.context.models.Notification.countDocuments({ projectId: project.projectId });
    const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
      body: { ...base, ...fields },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    const named = answer.body.error.details.find((detail: { path: string }) => detail.path === path);
    // Named for what is wrong with it, not as a field the API does not know.
    expect(named?.message, JSON.stringify(answer.body)).toMatch(/./);
    expect(named.message).not.toBe('is not a known field');
    expect(await harness.ingress.context.models.Notification.countDocuments({ projectId: project.projectId })).toBe(
      before,
    );
  });

  const journey = { name: 'Broken', trigger: { event: 'opted' }, body: 'hi' };
  const contentOptionCases = [
    ['/buttons/0/text', { buttons: [{ id: 'b', text: 'Buy {{ data.name' }] }],
    [
      '/buttons/1/url',
      {
        buttons: [
          { id: 'a', text: 'A' },
          { id: 'b', text: 'B', url: 'https://x.example/{% if %}' },
        ],
      },
    ],
    ['/localizations/ko/title', { localizations: { ko: { title: '{{ device.tags.name ', body: '안녕' } } }],
    ['/localizations/pt-BR/body', { localizations: { 'pt-BR': { body: 'p'.repeat(4090) }, ko: { body: '안녕' } } }],
  ] as const;
  it.each(
    (['templates', 'journeys'] as const).flatMap((resource) =>
      contentOptionCases.map(([path, fields]) => [resource, path, fields] as const),
    ),
  )(
    'refuses %s whose %s is not valid Liquid or cannot fit a push, and stores nothing',
    async (resource, path, fields) => {
      const { Template, Journey } = harness.ingress.context.models;
      const filter = { projectId: project.projectId };
      const stored = () =>
        resource === 'templates' ? Template.countDocuments(filter) : Journey.countDocuments(filter);
      const before = await stored();
      const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/${resource}`, {
        key: project.apiKey,
        body: { ...(resource === 'templates' ? { name: 'Broken', body: 'hi' } : journey), ...fields },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
      expect(await stored()).toBe(before);
    },
  );

  it('refuses a journey or a send naming a template stored with a language too large for a push', async () => {
    const templateId = 'stale-large-language';
    await harness.ingress.context.models.Template.create({
      _id: templateId,
      projectId: project.projectId,
      name: 'Stored before the rule',
      body: 'hi',
      localizations: { ko: { body: '가'.repeat(1400) } },
    });
    for (const [resource, body] of [
      ['journeys', { name: 'From it', trigger: { event: 'opted' }, templateId }],
      ['notifications', { targetType: 'device', targetIds: ['nobody'], templateId }],
    ] as const) {
      const answer = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/${resource}`, {
        key: project.apiKey,
        body,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error.details).toEqual([
        { path: '/templateId', message: expect.stringMatching(/^the template's ko body takes 4200 bytes/) },
      ]);
    }
  });

  it('keeps buttons and localizations on a template, and a send naming it carries them', async () => {
    const template = await harness.ingress.request('POST', `/v1/projects/${project.projectId}/templates`, {
      key: project.apiKey,
      body: {
        name: 'with options',
        body: 'Hi',
        buttons: [{ id: 'open', text: 'Open' }],
        localizations: { ko: { body: '안녕' } },
      },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    expect(template.body.data).toMatchObject({
      buttons: [{ id: 'open', text: 'Open' }],
      localizations: { ko: { body: '안녕' } },
    });
    await register(project, 'tpl-ko', { platform: 'android', pushToken: 'tpl-ko', language: 'ko' });
    const id = await send({ targetType: 'device', targetIds: ['tpl-ko'], templateId: template.body.data.id });
    expect((await readNotification(harness.ingress, project, id)).buttons).toEqual([{ id: 'open', text: 'Open' }]);
    await completed(id);
    expect(only('tpl-ko').payload.notification.body).toBe('안녕');
  });
});
