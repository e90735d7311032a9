import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  registerDevices,
  sendNotification,
  useDeliveryHarness,
  waitUntilCompleted,
  type DeliveryHarness,
} from '../support/delivery-harness.ts';
import { eventually } from '../support/eventually.ts';

/**
 * Input chosen to break things: keys MongoDB would read as operators or paths, prototype names, sizes at and past the
 * limits, deep nesting, and Liquid that loops, recurses or reads files. Each gets a 400 naming the field, or is
 * accepted and stays harmless; a worker that rendered hostile Liquid goes on delivering at once.
 */
const {
  harness,
  projects: { project },
} = useDeliveryHarness({ queues: ['send', 'deliver', 'event-ingest', 'journey-steps'], projects: { project: 'team' } });

const request = (method: string, path: string, options: Parameters<DeliveryHarness['ingress']['request']>[2]) =>
  harness.ingress.request(method, path, options);
const sdkPath = (suffix: string) => `/v1/sdk/projects/${project.projectId}${suffix}`;
const serverPath = (suffix: string) => `/v1/projects/${project.projectId}${suffix}`;
const putDevice = (deviceId: string, body: unknown) =>
  request('PUT', sdkPath(`/devices/${deviceId}`), { key: project.clientKey, body });
const rawJson = (body: string) => ({ rawBody: body, headers: { 'content-type': 'application/json' } });
const readTags = async (deviceId: string) =>
  (await request('GET', serverPath(`/devices/${deviceId}`), { key: project.apiKey })).body.data.tags;
const reportEvents = (events: unknown[]) =>
  request('POST', serverPath('/events'), { key: project.apiKey, body: { events } });

function expectRefused(response: { status: number; body: any }, path: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('invalid_request');
  expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
}

describe('hostile tag keys', () => {
  it.each([
    ['an operator', '$where', '/tags/$where'],
    ['a field path', 'a.b', '/tags/a.b'],
    ['a NUL', 'a\u0000b', '/tags/a\u0000b'],
    ['65 characters', 'k'.repeat(65), `/tags/${'k'.repeat(65)}`],
    ['nothing', '', '/tags/'],
  ])('refuses %s with a 400 naming the key, on devices and on users', async (_name, key, path) => {
    expectRefused(
      await putDevice('tag-keys', { platform: 'android', pushToken: 'tag-keys', tags: { [key]: 'x' } }),
      path,
    );
    expectRefused(
      await request('PATCH', serverPath('/users/tags'), {
        key: project.apiKey,
        body: { userId: 'tag-user', tags: { [key]: 'x' } },
      }),
      path,
    );
  });

  it('keeps prototype names, 64 characters and any unicode as ordinary tags', async () => {
    const tags = {
      constructor: 'c',
      prototype: 'p',
      valueOf: 3,
      toString: 't',
      hasOwnProperty: 'h',
      ['k'.repeat(64)]: 64,
      名前: '太郎',
      '🙂': 'smile',
      ' ': 'space',
    };
    const response = await putDevice('odd-keys', { platform: 'android', pushToken: 'odd-keys', tags });
    expect(response.status).toBe(200);
    expect(await readTags('odd-keys')).toEqual(tags);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it("keeps prototype names in a send's data and a journey's entry event: Liquid reads them and the push carries them (they were dropped)", async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'proto-keys', platform: 'android', token: 'proto-keys', tags: { prototype: 'tier' } },
    ]);
    const bodies = () => harness.sandbox.deliveries('proto-keys').map((push: any) => push.payload.notification.body);
    const id = await sendNotification(harness.ingress, project, {
      targetType: 'device',
      targetIds: ['proto-keys'],
      body: '{{ device.tags.prototype }} {{ data.prototype }} {{ data.a }}',
      // Mongoose kept or dropped such keys depending on the others beside them: these it dropped.
      data: { prototype: 'gold', a: '1' },
    });
    expect((await waitUntilCompleted(harness.ingress, project, id)).stats.sent).toBe(1);
    expect(bodies()).toEqual(['tier gold 1']);
    expect((harness.sandbox.deliveries('proto-keys')[0]!.payload as any).data).toMatchObject({
      prototype: 'gold',
      a: '1',
    });

    const journey = await request('POST', serverPath('/journeys'), {
      key: project.apiKey,
      body: { name: 'Prototype', trigger: { event: 'proto-event' }, body: 'event {{ entry_event.data.prototype }}' },
    });
    expect(journey.status, JSON.stringify(journey.body)).toBe(200);
    const reported = await reportEvents([
      { type: 'proto-event', subjectType: 'device', subjectId: 'proto-keys', data: { prototype: 'p' } },
    ]);
    expect(reported.body.data.error).toEqual([]);
    await eventually(() => expect(bodies()).toEqual(['tier gold 1', 'event p']));
  });

  it('checks and answers keys holding line breaks like any other key (their values went unchecked, and answers left them out)', async () => {
    const tags = { 'line\nbreak': 'v1', 'cr\rkey': 2, 'ls\u2028x': 'v3', 'ps\u2029y': 'v4', plain: 'p' };
    const registered = await putDevice('line-keys', { platform: 'android', pushToken: 'line-keys', tags });
    expect(registered.status).toBe(200);
    expect(registered.body.data.tags).toEqual(tags);
    expect(await readTags('line-keys')).toEqual(tags);

    for (const value of [{ x: 1 }, [1, 2], 'y'.repeat(1025)])
      expectRefused(
        await putDevice('line-keys', { platform: 'android', pushToken: 'line-keys', tags: { 'a\nb': value } }),
        '/tags/a\nb',
      );
    expect(await readTags('line-keys')).toEqual(tags);
    expectRefused(
      await request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        body: { targetType: 'device', targetIds: ['line-keys'], body: 'b', data: { 'k\nz': { deep: 1 } } },
      }),
      '/data/k\nz',
    );

    const data = { 'a\nb': 1, ok: 3 };
    expect(
      (await reportEvents([{ type: 'line-keys', subjectType: 'device', subjectId: 'line-keys', data }])).status,
    ).toBe(200);
    await eventually(async () => {
      const recent = await request('GET', serverPath('/events?deviceId=line-keys&type=line-keys'), {
        key: project.apiKey,
      });
      expect(recent.body.data.map((event: { data: unknown }) => event.data)).toEqual([data]);
    });
  });

  it('refuses __proto__ anywhere in a body with a 400 naming it, so nothing can reach a prototype', async () => {
    for (const [body, path] of [
      ['{"platform":"android","pushToken":"p","tags":{"__proto__":{"polluted":1}}}', '/tags/__proto__'],
      ['{"__proto__":{"platform":"android"},"pushToken":"p"}', '/__proto__'],
      [
        '{"platform":"android","pushToken":"p","tags":{"constructor":{"prototype":{"polluted":1}}}}',
        '/tags/constructor',
      ],
      // The same key however it is spelled.
      ['{"platform":"android","pushToken":"p","tags":{"\\u005f_proto__":"x"}}', '/tags/__proto__'],
    ]) {
      const response = await request('PUT', sdkPath('/devices/proto'), { key: project.clientKey, ...rawJson(body!) });
      expectRefused(response, path!);
    }
    // It was "The body is not valid JSON", with no field named.
    const events = await request('POST', serverPath('/events'), {
      key: project.apiKey,
      ...rawJson('{"events":[{"type":"t","subjectType":"user","subjectId":"u","data":{"__proto__":1}}]}'),
    });
    expectRefused(events, '/events/0/data/__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await request('GET', serverPath('/devices/proto'), { key: project.apiKey })).status).toBe(404);
  });
});

describe('hostile event data', () => {
  const event = (data: unknown) => ({ type: 'hostile', subjectType: 'user', subjectId: 'hostile-user', data });
  const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;

  it('answers each bad event with its index and accepts the good ones beside it', async () => {
    const manyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, index]));
    const response = await reportEvents([
      event({ ok: 1 }),
      event(manyKeys),
      event({ mixed: [1, 'one'] }),
      event({ nested: { a: { b: 1 } } }),
      event({ $gt: 1 }),
      event({ 'a.b': 1 }),
      event({ list: Array.from({ length: 101 }, (_, index) => index) }),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data.success).toBe(1);
    expect(response.body.data.error.map((error: { index: number; code: string }) => [error.index, error.code])).toEqual(
      [
        [1, 'invalid_data'],
        [2, 'invalid_data'],
        [3, 'invalid_data'],
        [4, 'invalid_data'],
        [5, 'invalid_data'],
        [6, 'invalid_data'],
      ],
    );
  });

  it('refuses nesting 100,000 levels deep without a stack overflow', async () => {
    const server = await request('POST', serverPath('/events'), {
      key: project.apiKey,
      ...rawJson(
        `{"events":[${JSON.stringify(event({ ok: 1 }))},{"type":"x","subjectType":"user","subjectId":"u","data":{"a":${deepArray}}},${deepObject}]}`,
      ),
    });
    expect(server.status).toBe(200);
    expect(server.body.data.success).toBe(1);
    expect(server.body.data.error.map((error: { index: number }) => error.index)).toEqual([1, 2]);
    await putDevice('deep-sdk', { platform: 'android', pushToken: 'deep-sdk' });
    const sdk = await request('POST', sdkPath('/devices/deep-sdk/events'), {
      key: project.clientKey,
      ...rawJson(`{"type":"deep","data":${deepObject}}`),
    });
    expectRefused(sdk, '/data/a');
  });

  it('takes a huge string inside the body limit and answers 413 past it', async () => {
    expect((await reportEvents([event({ text: 'x'.repeat(900 * 1024) })])).body.data.success).toBe(1);
    const tooLarge = await reportEvents([event({ text: 'x'.repeat(1100 * 1024) })]);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('payload_too_large');
  });
});

describe('hostile Liquid', () => {
  // The render limits stop the first four (the device counts as failed, nothing is pushed); the last renders "deep".
  // Their ranges come from the data: a range written out past the static limit is refused before anything renders.
  // Each runs only for a device tagged hostile, so that the render at save (a device with no tags) passes and the
  // delivery meets it: content that exceeds the limits for every device is refused at save (render-limits.test.ts).
  const forHostileDevices = (body: string) => `{% if device.tags.hostile %}${body}{% endif %}`;
  const hostileTemplates: Array<[string, string, 'failed' | 'sent']> = [
    ['a hundred-million-step loop', '{% for i in (1..device.tags.steps) %}{{ i }}{% endfor %}', 'failed'],
    ['nested loops', `${'{% for i in (1..1000) %}'.repeat(40)}x${'{% endfor %}'.repeat(40)}`, 'failed'],
    ['huge output', '{% for i in (1..device.tags.copies) %}{{ device.tags.big }}{% endfor %}', 'failed'],
    [
      'recursive assigns',
      '{% assign s = "ab" %}{% for i in (1..64) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
      'failed',
    ],
    ['deeply nested tags', `${'{% if true %}'.repeat(149)}deep${'{% endif %}'.repeat(149)}`, 'sent'],
  ].map(([name, body, outcome]) => [name, forHostileDevices(body!), outcome] as [string, string, 'failed' | 'sent']);

  it('names the field whose preview a render limit stopped: the field of the request, or its template', async () => {
    const loop = '{% for i in (1..data.steps) %}{{ i }}{% endfor %}';
    const preview = (body: object) =>
      request('POST', serverPath('/notifications/preview'), {
        key: project.apiKey,
        body: { ...body, data: { steps: 100_000_000 } },
      });
    for (const field of ['title', 'body', 'url', 'imageUrl'])
      expect((await preview({ body: 'ok', [field]: loop })).body.error.details).toEqual([
        { path: `/${field}`, message: expect.stringContaining('limit') },
      ]);
    const template = await request('POST', serverPath('/templates'), {
      key: project.apiKey,
      body: { name: 'looping title', title: loop, body: 'ok' },
    });
    expect((await preview({ templateId: template.body.data.id })).body.error.details).toEqual([
      { path: '/templateId', message: expect.stringMatching(/^its title: .*limit/) },
    ]);
  });

  it('refuses templates that are not Liquid, read files or pass the length limits with a 400', async () => {
    const refused = ['{{ x ', '{% if %}', `${'{% if true %}'.repeat(150)}`, '{{'.repeat(3000), 'x'.repeat(4097)];
    // include, render and layout failed inside the send job (found here): they are refused when the message arrives.
    refused.push("{% include 'x' %}", "{% render '/etc/passwd' %}", "{% layout 'x' %}");
    for (const body of refused) {
      expectRefused(
        await request('POST', serverPath('/templates'), { key: project.apiKey, body: { name: 'bad', body } }),
        '/body',
      );
      expectRefused(
        await request('POST', serverPath('/notifications'), {
          key: project.apiKey,
          body: { targetType: 'device', targetIds: ['x'], body },
        }),
        '/body',
      );
    }
  });

  it('fails the device for each hostile template within bounds, and the worker delivers a normal send right after', async () => {
    // Each hostile render would run for minutes or never end unbounded; a bounded one ends within the 50 ms processor
    // limit and the 1 s render timeout. The margin is for the queue and the worker on a loaded machine.
    const boundedMs = 15_000;
    const tags = { hostile: 'yes', steps: 100_000_000, copies: 100_000, big: 'y'.repeat(1000) };
    await registerDevices(harness.ingress, project, [
      { id: 'liquid-target', platform: 'ios', token: 'liquid-token', tags },
    ]);
    const pushesSince = (count: number) => harness.sandbox.deliveries('liquid-token').slice(count);
    // What support reads to tell why a device failed: the worker's log.
    const warn = vi.spyOn(harness.workers.context.log, 'warn');
    onTestFinished(() => warn.mockRestore());
    for (const [name, body, outcome] of hostileTemplates) {
      const before = harness.sandbox.deliveries('liquid-token').length;
      const started = Date.now();
      const id = await sendNotification(harness.ingress, project, {
        targetType: 'device',
        targetIds: ['liquid-target'],
        body,
      });
      const notification = await waitUntilCompleted(harness.ingress, project, id, 2 * boundedMs);
      expect(notification.stats, name).toMatchObject({ targeted: 1, [outcome]: 1 });
      const renderWarnings = warn.mock.calls.filter(
        ([fields]) => (fields as { notificationId?: string }).notificationId === id,
      );
      expect(renderWarnings, name).toEqual(
        outcome === 'failed'
          ? [
              [
                {
                  notificationId: id,
                  batch: 0,
                  failed: 1,
                  devices: 1,
                  reason: expect.stringMatching(/limit exceeded/),
                },
                'the message could not be rendered',
              ],
            ]
          : [],
      );
      expect(
        pushesSince(before).map((push: any) => push.payload.aps.alert.body),
        name,
      ).toEqual(outcome === 'sent' ? ['deep'] : []);
      expect(Date.now() - started, name).toBeLessThan(boundedMs);

      const normalSentAt = Date.now();
      const normal = await sendNotification(harness.ingress, project, {
        targetType: 'device',
        targetIds: ['liquid-target'],
        body: `after ${name}`,
      });
      await eventually(
        () => expect(pushesSince(before).map((push: any) => push.payload.aps.alert.body)).toContain(`after ${name}`),
        boundedMs,
      );
      expect(Date.now() - normalSentAt, name).toBeLessThan(boundedMs);
      expect((await waitUntilCompleted(harness.ingress, project, normal)).stats.sent).toBe(1);
    }
  }, 300_000);
});

describe('found by npm run fuzz', () => {
  it('refuses notification data keys MongoDB cannot store (was a 500)', async () => {
    for (const key of ['a.b', '$set', 'a\u0000b']) {
      const response = await request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        body: { targetType: 'userId', targetIds: ['someone'], body: 'b', data: { [key]: 1 } },
      });
      expectRefused(response, `/data/${key}`);
    }
  });

  it('refuses a number past ±1.8e308 (parsed as Infinity) with a 400 naming it, and deletes no tag (was a 500, or a silent delete)', async () => {
    await registerDevices(harness.ingress, project, [
      { id: 'huge-number', platform: 'android', token: 'huge-number', userId: 'huge-user', tags: { level: 3 } },
    ]);
    for (const huge of ['1e400', '-1e400']) {
      expectRefused(
        await request('PUT', sdkPath('/devices/huge-number'), {
          key: project.clientKey,
          ...rawJson(`{"platform":"android","pushToken":"huge-number","tags":{"level":${huge}}}`),
        }),
        '/tags/level',
      );
      expectRefused(
        await request('PATCH', sdkPath('/devices/huge-number'), {
          key: project.clientKey,
          ...rawJson(`{"tags":{"level":${huge}}}`),
        }),
        '/tags/level',
      );
      expectRefused(
        await request('PATCH', serverPath('/users/tags'), {
          key: project.apiKey,
          ...rawJson(`{"userId":"huge-user","tags":{"level":${huge}}}`),
        }),
        '/tags/level',
      );
      expectRefused(
        await request('POST', serverPath('/notifications'), {
          key: project.apiKey,
          ...rawJson(`{"targetType":"userId","targetIds":["huge-user"],"body":"b","data":{"a":${huge}}}`),
        }),
        '/data/a',
      );
    }
    const segment = `{"name":"huge","match":"all","conditions":[{"event":"purchase","withinDays":3,"count":{"op":"gte","value":1e400}}]}`;
    expectRefused(
      await request('POST', serverPath('/segments'), { key: project.apiKey, ...rawJson(segment) }),
      '/conditions/0/count/value',
    );
    expect(await readTags('huge-number')).toEqual({ level: 3 });
  });
});

describe('hostile times', () => {
  // A leap second and an offset without minutes pass RFC 3339 as ajv-formats reads it, but Date parses neither; years
  // 0 and 10000 (in UTC) parse, but SecantusDB refuses them in any document or filter.
  const unparsable = ['2024-06-30T23:59:60Z', '2024-01-01T00:00:00+09'];
  const unstorable = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-23:59'];

  it('refuses them in sendAt and in the before of a list with a 400 naming the field, and claims no idempotency key (were 500s)', async () => {
    for (const time of [...unparsable, ...unstorable]) {
      const headers = { 'idempotency-key': `hostile-time-${time}` };
      const send = { targetType: 'userId', targetIds: ['someone'], body: 'b' };
      expectRefused(
        await request('POST', serverPath('/notifications'), {
          key: project.apiKey,
          headers,
          body: { ...send, sendAt: time },
        }),
        '/sendAt',
      );
      const accepted = await request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        headers,
        body: send,
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const before = `?before=${encodeURIComponent(time)}`;
      expectRefused(
        await request('GET', serverPath(`/notifications${before}`), { key: project.apiKey }),
        '/query/before',
      );
      expectRefused(
        await request('GET', serverPath(`/devices/anyone/notification-history${before}`), { key: project.apiKey }),
        '/query/before',
      );
    }
  });

  it('still takes every RFC 3339 form Date reads in sendAt: an offset without a colon, lower case, a space', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
    for (const sendAt of [`${tomorrow}+0900`, `${tomorrow.replace('T', 't')}z`, `${tomorrow.replace('T', ' ')}Z`]) {
      const response = await request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        body: { targetType: 'userId', targetIds: ['someone'], body: 'b', sendAt },
      });
      expect(response.status, `${sendAt}: ${JSON.stringify(response.body)}`).toBe(200);
    }
  });

  it('reads a time written with a space as the same instant as with a "T", in the years 0001 to 0099 too', async () => {
    // With a space, Date read the year 0049 as 2049 and refused 0027: a past sendAt was "too far ahead", a list's
    // `before` in the year 49 listed everything.
    for (const [sendAt, instant] of [
      ['0049-06-01 00:00:00Z', '0049-06-01T00:00:00.000Z'],
      ['0027-06-01 00:00:00+09:00', '0027-05-31T15:00:00.000Z'],
      ['0001-12-01 00:00:00Z', '0001-12-01T00:00:00.000Z'],
    ]) {
      const response = await request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        body: { targetType: 'userId', targetIds: ['someone'], body: 'b', sendAt },
      });
      expect(response.status, `${sendAt}: ${JSON.stringify(response.body)}`).toBe(200);
      const stored = await harness.ingress.context.models.Notification.findById(response.body.data.id).lean();
      expect(stored?.sendAt?.toISOString(), sendAt).toBe(instant);
    }
    const listed = await request('GET', serverPath('/notifications'), { key: project.apiKey });
    expect(listed.body.data.length).toBeGreaterThan(0);
    for (const before of ['0049-01-01 00:00:00Z', '0049-01-01T00:00:00Z']) {
      const page = await request('GET', serverPath(`/notifications?before=${encodeURIComponent(before)}`), {
        key: project.apiKey,
      });
      expect(page.body, before).toEqual({ data: [] });
    }
  });

  it('refuses an event whose data holds a time no store can hold, alone or in an array, and stores the good events beside it (the whole request was lost)', async () => {
    for (const [index, time] of unstorable.entries()) {
      const subjectId = `hostile-time-${index}`;
      const response = await reportEvents([
        { type: 'hostile-time', subjectType: 'user', subjectId, data: { at: time } },
        { type: 'hostile-time', subjectType: 'user', subjectId, data: { at: '2024-04-19T14:23:56+09:00' } },
        { type: 'hostile-time', subjectType: 'user', subjectId, data: { days: ['2024-04-19T00:00:00Z', time] } },
      ]);
      expect(response.body.data.success).toBe(1);
      expect(response.body.data.error).toEqual([
        { index: 0, code: 'invalid_data', message: expect.stringContaining('data.at is a time outside the years') },
        {
          index: 2,
          code: 'invalid_data',
          message: expect.stringContaining('data.days holds a time: is a time outside'),
        },
      ]);
      const events = await eventually(async () => {
        const recent = await request('GET', serverPath(`/events?userId=${subjectId}`), { key: project.apiKey });
        expect(recent.body.data).toHaveLength(1);
        return recent.body.data;
      });
      expect(events[0].data).toEqual({ at: '2024-04-19T05:23:56.000Z' });
    }
  });

  it('refuses a segment condition on such a time with a 400, where it was saved and then failed every preview and send', async () => {
    for (const time of unstorable) {
      const definition = {
        match: 'all',
        conditions: [
          {
            event: 'purchase',
            withinDays: 30,
            count: { op: 'gte', value: 1 },
            where: [
              { field: 'at', op: 'gt', value: '2024-01-01T00:00:00Z' },
              { field: 'at', op: 'in', value: ['2024-01-01T00:00:00Z', time] },
            ],
          },
        ],
      };
      for (const [path, body] of [
        ['/segments', { name: `hostile time ${time}`, ...definition }],
        ['/segments/preview', definition],
      ] as const)
        expectRefused(
          await request('POST', serverPath(path), { key: project.apiKey, body }),
          '/conditions/0/where/1/value',
        );
    }
  });
});

describe('hostile text encodings', () => {
  const putRaw = (deviceId: string, options: { rawBody: string | Buffer; headers: Record<string, string> }) =>
    request('PUT', sdkPath(`/devices/${deviceId}`), { key: project.clientKey, ...options });
  const deviceExists = async (deviceId: string) =>
    (await request('GET', serverPath(`/devices/${deviceId}`), { key: project.apiKey })).status === 200;

  it('refuses a lone surrogate escape in a key or a value with a 400 naming it, where two keys or two users became one', async () => {
    expectRefused(
      await putRaw(
        'lone-key',
        rawJson('{"platform":"android","pushToken":"lone-key","tags":{"\\ud800":1,"\\udc00":2}}'),
      ),
      '/tags/\ufffd',
    );
    expectRefused(
      await putRaw('lone-user', rawJson('{"platform":"android","pushToken":"lone-user","userId":"\\ud800"}')),
      '/userId',
    );
    expect(await deviceExists('lone-key')).toBe(false);
    expect(await deviceExists('lone-user')).toBe(false);
    expectRefused(
      await request('PATCH', serverPath('/users/tags'), {
        key: project.apiKey,
        ...rawJson('{"userId":"\\udc00","tags":{"x":1}}'),
      }),
      '/userId',
    );
    expectRefused(
      await request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        ...rawJson('{"targetType":"userId","targetIds":["someone"],"body":"b","data":{"list":["ok","\\udfff"]}}'),
      }),
      '/data/list/1',
    );
  });

  it('keeps a surrogate pair given as escapes: it is one character', async () => {
    const registered = await putRaw(
      'paired-escape',
      rawJson('{"platform":"android","pushToken":"paired-escape","tags":{"mood":"\\ud83d\\ude00"}}'),
    );
    expect(registered.status).toBe(200);
    expect(await readTags('paired-escape')).toEqual({ mood: '😀' });
  });

  it('refuses bytes that are not UTF-8 with a 400, where they were stored as U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"platform":"android","pushToken":"bad-bytes","tags":{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
      Buffer.from('"}}'),
    ]);
    const response = await putRaw('bad-bytes', { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', message: 'The body is not valid UTF-8.' });
    expect(await deviceExists('bad-bytes')).toBe(false);
  });

  it('answers 415 to a compressed body or a charset other than UTF-8, and takes utf-8 however it is spelled', async () => {
    const body = '{"platform":"android","pushToken":"encodings"}';
    for (const headers of [
      { 'content-type': 'application/json', 'content-encoding': 'gzip' } as Record<string, string>,
      { 'content-type': 'application/json; charset=utf-16le' },
      { 'content-type': 'application/json; charset=iso-8859-1' },
    ]) {
      const response = await putRaw('encodings', { rawBody: body, headers });
      expect(response.status, JSON.stringify(headers)).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    }
    expect(await deviceExists('encodings')).toBe(false);
    for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"', 'us-ascii']) {
      const headers = { 'content-type': `application/json; charset=${charset}`, 'content-encoding': 'identity' };
      expect((await putRaw('encodings', { rawBody: body, headers })).status, charset).toBe(200);
    }
  });
});

describe('found by a hostile-input hunt', () => {
  it('refuses a push token or a Web Push subscription no gateway can use with a 400 naming it, where the device was stored subscribed and every send failed it', async () => {
    for (const pushToken of ['a\u0000b', 'a\r\nb', 'a b', 'ünicode'])
      expectRefused(await putDevice('unusable-token', { platform: 'android', pushToken }), '/pushToken');
    const subscription = (await (
      await fetch(`http://127.0.0.1:${harness.sandbox.port}/webpush/subscriptions`, { method: 'POST' })
    ).json()) as { endpoint: string; keys: { p256dh: string; auth: string } };
    expect((await putDevice('usable-web', { platform: 'web', webPush: subscription })).status).toBe(200);
    expectRefused(
      await putDevice('unusable-web', { platform: 'web', webPush: { ...subscription, endpoint: 'https://[::1' } }),
      '/webPush/endpoint',
    );
    // The same point in the hybrid encoding (0x06 or 0x07 by the parity of y), which RFC 8291 does not allow.
    const hybrid = Buffer.from(subscription.keys.p256dh, 'base64url');
    hybrid[0] = 0x06 | (hybrid[64]! & 1);
    for (const p256dh of ['A'.repeat(87), hybrid.toString('base64url')])
      expectRefused(
        await putDevice('unusable-web', {
          platform: 'web',
          webPush: { ...subscription, keys: { ...subscription.keys, p256dh } },
        }),
        '/webPush/keys/p256dh',
      );
    expect((await request('GET', serverPath('/devices/unusable-token'), { key: project.apiKey })).status).toBe(404);
    expect((await request('GET', serverPath('/devices/unusable-web'), { key: project.apiKey })).status).toBe(404);
  });

  it('refuses a device target that cannot be a device id, while user ids stay free text', async () => {
    const send = (targetType: string, targetIds: string[]) =>
      request('POST', serverPath('/notifications'), {
        key: project.apiKey,
        body: { targetType, targetIds, body: 'b' },
      });
    const refused = await send('device', ['real-device', 'not a device']);
    expectRefused(refused, '/targetIds/1');
    expect(refused.body.error.details).toHaveLength(1);
    expect((await send('userId', ['not a device'])).status).toBe(200);
  });

  it('refuses an empty or blank body for a send, a template and a journey with a 400 naming it, where it sent empty notifications', async () => {
    for (const body of ['', '   ', '\n\t']) {
      const send = { targetType: 'userId', targetIds: ['someone'], body };
      expectRefused(await request('POST', serverPath('/notifications'), { key: project.apiKey, body: send }), '/body');
      const template = { name: 'blank', body };
      expectRefused(await request('POST', serverPath('/templates'), { key: project.apiKey, body: template }), '/body');
      const journey = { name: 'blank', trigger: { event: 'blank-body' }, body };
      expectRefused(await request('POST', serverPath('/journeys'), { key: project.apiKey, body: journey }), '/body');
    }
    const journeys = await request('GET', serverPath('/journeys'), { key: project.apiKey });
    expect(journeys.body.data.filter((journey: { name: string }) => journey.name === 'blank')).toEqual([]);

    // With a template, the body is the template's: whatever else was sent does not matter.
    const template = await request('POST', serverPath('/templates'), {
      key: project.apiKey,
      body: { name: 'not blank', body: 'From the template' },
    });
    const withTemplate = { targetType: 'userId', targetIds: ['someone'], templateId: template.body.data.id, body: '' };
    expect(
      (await request('POST', serverPath('/notifications'), { key: project.apiKey, body: withTemplate })).status,
    ).toBe(200);
  });

  it('lets a journey stored with a blank body before the rule be paused, but not resumed', async () => {
    const journeyPath = serverPath('/journeys/blank-before');
    const stored = { name: 'blank before', trigger: { event: 'blank-before' }, body: '', active: true };
    await harness.ingress.context.models.Journey.create({
      _id: 'blank-before',
      projectId: project.projectId,
      name: stored.name,
      entry: stored.trigger,
      steps: [{ id: 'message', type: 'push', body: '' }],
      status: 'active',
      version: 1,
    });
    const pause = await request('PUT', journeyPath, { key: project.apiKey, body: { ...stored, active: false } });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    expectRefused(await request('PUT', journeyPath, { key: project.apiKey, body: stored }), '/body');
    expectRefused(
      await request('POST', serverPath('/journeys'), {
        key: project.apiKey,
        body: { name: 'blank trigger', trigger: { event: '  ' }, body: 'b' },
      }),
      '/trigger/event',
    );
  });

  it('refuses a blank event type, which was listed as an empty entry of the catalog', async () => {
    expectRefused(
      await request('POST', serverPath('/event-types'), { key: project.apiKey, body: { type: '   ' } }),
      '/type',
    );
    const reported = await reportEvents([{ type: ' ', subjectType: 'user', subjectId: 'blank-type' }]);
    expect(reported.body.data).toMatchObject({ success: 0, error: [{ index: 0, code: 'invalid_type' }] });
  });

  it('refuses an unknown query parameter on every list, as the notifications list did', async () => {
    for (const path of ['/devices/anyone/notification-history', '/templates', '/segments', '/journeys'])
      expectRefused(await request('GET', serverPath(`${path}?limit=5&sort=1`), { key: project.apiKey }), '/query/sort');
  });
});
