import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { waitFor } from '../support/eventually.ts';
import { deviceKey } from '../../src/models/device.ts';

const {
  ingress,
  projects: { project, other },
} = useIngress({ workers: ['event-ingest', 'journey-steps'], projects: { project: 'team', other: 'team' } });

const messages = (suffix = '') => `/v1/projects/${project.projectId}/in-app-messages${suffix}`;
const server = (method: string, path: string, body?: unknown) =>
  ingress.request(method, path, { key: project.apiKey, body });
const sdkDevice = (deviceId: string) => `/v1/sdk/projects/${project.projectId}/devices/${deviceId}`;
const sdk = (method: string, path: string, body?: unknown) =>
  ingress.request(method, path, { key: project.clientKey, body });

const base = {
  name: 'cart nudge',
  status: 'active',
  layout: 'modal',
  title: 'Hi {{ device.tags.name | default: "there" }}',
  body: 'Your cart is waiting',
  buttons: [
    { id: 'go', text: 'Open cart', action: 'url', url: 'https://shop.example/cart' },
    { id: 'later', text: 'Later', action: 'close' },
  ],
  trigger: { event: 'added_to_cart' },
  frequency: 'always',
};

let devices = 0;
async function device(tags: Record<string, string | number> = {}): Promise<string> {
  const deviceId = `iam-${++devices}-${Date.now()}`;
  const registered = await sdk('PUT', sdkDevice(deviceId), { platform: 'web', tags });
  expect(registered.status).toBe(200);
  return deviceId;
}

async function create(fields: Record<string, unknown> = {}): Promise<string> {
  const created = await server('POST', messages(), { ...base, ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.id;
}

const offered = async (deviceId: string): Promise<string[]> => {
  const answer = await sdk('GET', `${sdkDevice(deviceId)}/in-app-messages`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((message: { id: string }) => message.id);
};

async function report(deviceId: string, type: string, data: Record<string, string>): Promise<void> {
  expect((await sdk('POST', `${sdkDevice(deviceId)}/events`, { type, data })).status).toBe(200);
}

/** Waits until the event-ingest worker has stored the device's events of that type. */
const stored = (deviceId: string, type: string, count: number) =>
  waitFor(
    async () =>
      (await server('GET', `/v1/projects/${project.projectId}/events?deviceId=${deviceId}&type=${type}`)).body.data,
    (events: unknown[]) => events.length >= count,
  );

describe('in-app messages: server API (CONTRACTS §16)', () => {
  it('creates, reads with stats, lists, replaces and deletes a message', async () => {
    const id = await create();
    const read = await server('GET', messages(`/${id}`));
    expect(read.body.data).toMatchObject({
      ...base,
      id,
      imageUrl: null,
      segmentId: null,
      priority: 0,
      stats: { displayed: 0, clicked: 0, closed: 0 },
    });
    const listed = await server('GET', messages());
    expect(listed.body.data.map((message: { id: string }) => message.id)).toContain(id);
    const replaced = await server('PUT', messages(`/${id}`), {
      ...base,
      layout: 'banner',
      frequency: { everyDays: 3 },
    });
    expect(replaced.body.data).toMatchObject({ id, layout: 'banner', frequency: { everyDays: 3 } });
    expect((await server('DELETE', messages(`/${id}`))).status).toBe(200);
    expect((await server('GET', messages(`/${id}`))).status).toBe(404);
    const openapi = await ingress.request('GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/projects/{projectId}/in-app-messages',
        '/v1/projects/{projectId}/in-app-messages/{id}',
        '/v1/sdk/projects/{projectId}/devices/{deviceId}/in-app-messages',
      ]),
    );
  });

  it('answers 400 naming each bad field, and 404 for an unknown segment', async () => {
    const button = { id: 'b', text: 'B', action: 'close' };
    const bad = await server('POST', messages(), {
      ...base,
      title: '{{ unclosed',
      buttons: [button, { ...button, id: 'c' }, { ...button, id: 'd' }],
      trigger: {},
      startAt: '2030-01-02T00:00:00Z',
      endAt: '2030-01-01T00:00:00Z',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    const paths = bad.body.error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(expect.arrayContaining(['/buttons', '/trigger', '/endAt', '/title']));

    const hostileUrl = await server('POST', messages(), {
      ...base,
      buttons: [{ id: 'x', text: 'X', action: 'url', url: 'javascript:alert(1)' }],
    });
    expect(hostileUrl.status).toBe(400);
    expect(hostileUrl.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['/buttons/0/url']);

    const both = await server('POST', messages(), { ...base, trigger: { event: 'x', on: 'session_start' } });
    expect(both.body.error.details).toEqual([{ path: '/trigger', message: expect.stringContaining('exactly one') }]);

    const unknownSegment = await server('POST', messages(), { ...base, segmentId: 'no-such-segment' });
    expect(unknownSegment.status).toBe(404);
    expect(unknownSegment.body.error.message).toContain('no-such-segment');
    expect((await server('GET', messages())).body.data.map((m: { name: string }) => m.name)).not.toContain(
      'never stored',
    );
  });

  it('counts distinct devices per event in stats', async () => {
    const id = await create({ name: 'stats' });
    const [first, second] = [await device(), await device()];
    await report(first, '@iam_displayed', { inAppMessageId: id });
    await report(first, '@iam_displayed', { inAppMessageId: id });
    await report(second, '@iam_displayed', { inAppMessageId: id });
    await report(first, '@iam_clicked', { inAppMessageId: id, buttonId: 'go' });
    await report(second, '@iam_closed', { inAppMessageId: id });
    await stored(first, '@iam_clicked', 1);
    await stored(second, '@iam_closed', 1);
    await stored(first, '@iam_displayed', 2);
    const read = await server('GET', messages(`/${id}`));
    expect(read.body.data.stats).toEqual({ displayed: 2, clicked: 1, closed: 1 });
  });
});

describe('in-app messages: the SDK route (CONTRACTS §16)', () => {
  it('answers the messages rendered for the device, highest priority first', async () => {
    const low = await create({ name: 'low', priority: 1 });
    const high = await create({ name: 'high', priority: 5 });
    const deviceId = await device({ name: 'Ada' });
    const answer = await sdk('GET', `${sdkDevice(deviceId)}/in-app-messages`);
    const ids = answer.body.data.map((message: { id: string }) => message.id);
    expect(ids.indexOf(high)).toBeLessThan(ids.indexOf(low));
    expect(answer.body.data.find((message: { id: string }) => message.id === high)).toMatchObject({
      title: 'Hi Ada',
      body: 'Your cart is waiting',
      layout: 'modal',
      trigger: { event: 'added_to_cart' },
    });
    expect((await sdk('GET', `${sdkDevice('nobody-here')}/in-app-messages`)).status).toBe(404);
    await server('DELETE', messages(`/${low}`));
    await server('DELETE', messages(`/${high}`));
  });

  it('leaves out a paused message, one not started yet and one ended', async () => {
    const paused = await create({ name: 'paused', status: 'paused' });
    const later = await create({ name: 'later', startAt: new Date(Date.now() + 3_600_000).toISOString() });
    const ended = await create({
      name: 'ended',
      startAt: new Date(Date.now() - 7_200_000).toISOString(),
      endAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    const running = await create({ name: 'running', endAt: new Date(Date.now() + 3_600_000).toISOString() });
    const ids = await offered(await device());
    expect(ids).toContain(running);
    expect(ids).not.toContain(paused);
    expect(ids).not.toContain(later);
    expect(ids).not.toContain(ended);
  });

  it('answers a segment-targeted message only to devices in the segment, by tags and by events', async () => {
    const pro = await server('POST', `/v1/projects/${project.projectId}/segments`, {
      name: 'pro buyers',
      match: 'all',
      conditions: [
        { tag: 'plan', op: 'eq', value: 'pro' },
        { event: 'purchase', withinDays: 7, count: { op: 'gte', value: 1 } },
      ],
    });
    const id = await create({ name: 'for pro buyers', segmentId: pro.body.data.id });
    const [buyer, free, idle] = [
      await device({ plan: 'pro' }),
      await device({ plan: 'free' }),
      await device({ plan: 'pro' }),
    ];
    for (const deviceId of [buyer, free]) await report(deviceId, 'purchase', { sku: 'a' });
    await stored(buyer, 'purchase', 1);
    await stored(free, 'purchase', 1);
    expect(await offered(buyer)).toContain(id);
    expect(await offered(free)).not.toContain(id);
    expect(await offered(idle)).not.toContain(id);
  });

  it("keeps to the frequency, by the device's own @iam_displayed history", async () => {
    const once = await create({ name: 'once', frequency: 'once' });
    const daily = await create({ name: 'daily', frequency: { everyDays: 1 } });
    const always = await create({ name: 'always', frequency: 'always' });
    const [shown, other] = [await device(), await device()];
    for (const id of [once, daily, always]) await report(shown, '@iam_displayed', { inAppMessageId: id });
    await stored(shown, '@iam_displayed', 3);
    const ids = await offered(shown);
    expect(ids).toContain(always);
    expect(ids).not.toContain(once);
    expect(ids).not.toContain(daily);
    expect(await offered(other)).toEqual(expect.arrayContaining([once, daily, always]));

    // A showing more than a day ago allows the daily message again, never the one shown once.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    await ingress.context.models.Device.updateOne(
      { _id: deviceKey(project.projectId, shown) },
      { $set: { lastInAppDisplays: { [once]: dayAgo, [daily]: dayAgo, [always]: dayAgo } } },
    );
    const dayLater = await offered(shown);
    expect(dayLater).toContain(daily);
    expect(dayLater).not.toContain(once);
  });
});

describe("in-app messages: the device's showings", () => {
  it('keeps on the device only the showings of messages its project has, so client text never becomes a field', async () => {
    const mine = await create({ name: 'mine', frequency: 'once' });
    const theirs = await ingress.request('POST', `/v1/projects/${other.projectId}/in-app-messages`, {
      key: other.apiKey,
      body: { ...base, name: 'theirs' },
    });
    expect(theirs.status).toBe(200);
    const deviceId = await device();
    for (const id of [theirs.body.data.id, 'no.such$message', mine])
      await report(deviceId, '@iam_displayed', { inAppMessageId: id });
    await stored(deviceId, '@iam_displayed', 3);
    const kept = await ingress.context.models.Device.findById(deviceKey(project.projectId, deviceId)).lean();
    expect(Object.keys(kept?.lastInAppDisplays ?? {})).toEqual([mine]);
    expect(await offered(deviceId)).not.toContain(mine);
  });
});

describe('in-app events are events like any other', () => {
  it('triggers a journey on @iam_clicked, with the message and button bound as entry_event', async () => {
    const journey = await server('POST', `/v1/projects/${project.projectId}/journeys`, {
      name: 'after an in-app click',
      trigger: { event: '@iam_clicked', where: [{ field: 'buttonId', op: 'eq', value: 'go' }] },
      body: 'You clicked {{ entry_event.data.buttonId }}',
    });
    expect(journey.status, JSON.stringify(journey.body)).toBe(200);
    const id = await create({ name: 'journey source' });
    const deviceId = await device();
    await report(deviceId, '@iam_clicked', { inAppMessageId: id, buttonId: 'go' });
    const sends = await waitFor(
      () => ingress.context.models.Notification.find({ journeyId: journey.body.data.id }).lean(),
      (found) => found.length === 1,
    );
    expect(sends[0]).toMatchObject({ targetType: 'device', targetIds: [deviceId] });
    expect(sends[0]!.entryEvent).toMatchObject({ type: '@iam_clicked', data: { inAppMessageId: id, buttonId: 'go' } });
  });
});
