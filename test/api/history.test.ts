import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

const day = 24 * 60 * 60 * 1000;
const now = Date.now();

beforeAll(async () => {
  const registered = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/phone`, {
    key: project.clientKey,
    body: { platform: 'android', pushToken: 'tok' },
  });
  expect(registered.status).toBe(200);
  // Written as the deliver worker writes them; one is past the 30-day window and not yet purged.
  const ages = [31 * day, 29 * day, 3 * day, 2 * day, day, 60_000];
  await ingress.context.models.History.insertMany(
    ages.map((age, index) => ({
      projectId: project.projectId,
      deviceId: 'phone',
      notificationId: `n${index}`,
      notification: {
        id: `n${index}`,
        createdAt: new Date(now - age - 1000),
        title: `title ${index}`,
        body: `body ${index}`,
        url: null,
        imageUrl: null,
      },
      sentAt: new Date(now - age),
    })),
  );
});

const historyPath = (query = '', device = 'phone') =>
  `/v1/projects/${project.projectId}/devices/${device}/notification-history${query}`;
const notificationIds = (response: { body: any }) =>
  response.body.data.map((entry: { notification: { id: string } }) => entry.notification.id);

describe('GET notification-history (spec §4.3, CONTRACTS §8)', () => {
  it('answers entries newest first with the spec fields, never older than 30 days', async () => {
    const response = await ingress.request('GET', historyPath(), { key: project.apiKey });
    expect(response.status).toBe(200);
    expect(notificationIds(response)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1']);
    expect(response.body.data[0]).toEqual({
      notification: {
        id: 'n5',
        createdAt: new Date(now - 61_000).toISOString(),
        title: 'title 5',
        body: 'body 5',
        url: null,
        imageUrl: null,
      },
      sentAt: new Date(now - 60_000).toISOString(),
    });
  });

  it('pages with limit and before', async () => {
    const first = await ingress.request('GET', historyPath('?limit=2'), { key: project.apiKey });
    expect(notificationIds(first)).toEqual(['n5', 'n4']);
    const before = encodeURIComponent(first.body.data[1].sentAt);
    const second = await ingress.request('GET', historyPath(`?limit=2&before=${before}`), { key: project.apiKey });
    expect(notificationIds(second)).toEqual(['n3', 'n2']);
    const last = await ingress.request(
      'GET',
      historyPath(`?limit=2&before=${encodeURIComponent(second.body.data[1].sentAt)}`),
      { key: project.apiKey },
    );
    expect(notificationIds(last)).toEqual(['n1']);
  });

  it('pages through pushes the device received in the same millisecond, by the last entry or by its time', async () => {
    const registered = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/busy-phone`, {
      key: project.clientKey,
      body: { platform: 'android', pushToken: 'tok-busy' },
    });
    expect(registered.status).toBe(200);
    const sentAt = new Date(now - 10 * day);
    await ingress.context.models.History.insertMany(
      ['t0', 't1', 't2', 't3'].map((notificationId, index) => ({
        projectId: project.projectId,
        deviceId: 'busy-phone',
        notificationId,
        notification: { id: notificationId, createdAt: sentAt, title: null, body: 'tied', url: null, imageUrl: null },
        // t0 a millisecond earlier than the three sent together.
        sentAt: new Date(sentAt.getTime() - (index === 0 ? 1 : 0)),
      })),
    );
    const page = async (before: string) => {
      const response = await ingress.request(
        'GET',
        historyPath(`?limit=1&before=${encodeURIComponent(before)}`, 'busy-phone'),
        { key: project.apiKey },
      );
      expect(response.status).toBe(200);
      return response.body.data as Array<{ notification: { id: string }; sentAt: string }>;
    };
    // A page never ends inside a millisecond: limit 1 answers the three sent together.
    const first = await page(new Date(sentAt.getTime() + 1).toISOString());
    expect(first.map((entry) => entry.notification.id)).toEqual(['t3', 't2', 't1']);
    // So the next page, by the last entry's time (CONTRACTS §8) or by its id, skips nothing and repeats nothing.
    for (const before of [first[2]!.sentAt, 't1'])
      expect((await page(before)).map((entry) => entry.notification.id)).toEqual(['t0']);
    // From inside the millisecond, by id: the rest of it.
    expect((await page('t3')).map((entry) => entry.notification.id)).toEqual(['t2', 't1']);
  });

  it('refuses a limit over 1000 and a before that is neither a time nor a notification in the history', async () => {
    for (const query of ['?limit=1001', '?limit=0', '?before=yesterday', '?before=n5x']) {
      const response = await ingress.request('GET', historyPath(query), { key: project.apiKey });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
  });

  it('answers 404 for an unknown device', async () => {
    const response = await ingress.request('GET', historyPath('', 'unknown'), { key: project.apiKey });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('answers an empty list for a device that received nothing', async () => {
    await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/quiet`, {
      key: project.clientKey,
      body: { platform: 'ios', pushToken: 't2' },
    });
    const response = await ingress.request('GET', historyPath('', 'quiet'), { key: project.apiKey });
    expect(response.body).toEqual({ data: [] });
  });
});
