import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';

const {
  ingress,
  projects: { starter, team },
} = useIngress({ projects: { starter: 'starter', team: 'team' } });

const send = (owner: CreatedProject, body: unknown, headers?: Record<string, string>) =>
  ingress.request('POST', `/v1/projects/${owner.projectId}/notifications`, { key: owner.apiKey, body, headers });
const ids = (count: number) => Array.from({ length: count }, (_, index) => `u${index}`);

async function registerDevice(owner: CreatedProject, deviceId: string) {
  const response = await ingress.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/${deviceId}`, {
    key: owner.clientKey,
    body: { platform: 'android', pushToken: `token-${deviceId}` },
  });
  expect(response.status).toBe(200);
}

/** A segment of every device of the team project, stored as the segments API stores one. */
const storeSegment = (id: string) =>
  ingress.context.models.Segment.create({ _id: id, projectId: team.projectId, name: id, match: 'all', conditions: [] });

// The devices these sends target exist: a send to an unknown device is a 404.
beforeAll(async () => {
  for (const owner of [starter, team]) for (const deviceId of ['d', 'u0']) await registerDevice(owner, deviceId);
});

function expectInvalid(response: { status: number; body: any }, path: string) {
  expect(response.status).toBe(400);
  expect(response.body.error.code).toBe('invalid_request');
  expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
}

describe('POST /notifications validation (spec §4.1, §8)', () => {
  it('accepts a send and answers its id, which GET reads back as queued', async () => {
    const response = await send(team, {
      targetType: 'userId',
      targetIds: ['nobody'],
      title: 'T',
      body: 'B',
      url: 'https://x.example',
      imageUrl: 'https://x.example/i.png',
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data']);
    const id = response.body.data.id;
    const read = await ingress.request('GET', `/v1/projects/${team.projectId}/notifications/${id}`, {
      key: team.apiKey,
    });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      id,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      status: 'queued',
      title: 'T',
      body: 'B',
      url: 'https://x.example',
      imageUrl: 'https://x.example/i.png',
      stats: { targeted: 0, sent: 0, failed: 0, unsubscribed: 0, capped: 0, clicked: 0 },
    });
    const job = await ingress.context.queues.send.getJob(id);
    expect(job?.name).toBe(`send:${id}`);
  });

  it('limits userId and device targets to 1 on the starter plan and 100 on team', async () => {
    expectInvalid(await send(starter, { targetType: 'userId', targetIds: ids(2), body: 'b' }), '/targetIds');
    expectInvalid(await send(starter, { targetType: 'device', targetIds: ids(2), body: 'b' }), '/targetIds');
    expect((await send(starter, { targetType: 'device', targetIds: ids(1), body: 'b' })).status).toBe(200);
    expect((await send(team, { targetType: 'userId', targetIds: ids(100), body: 'b' })).status).toBe(200);
    expectInvalid(await send(team, { targetType: 'userId', targetIds: ids(101), body: 'b' }), '/targetIds');
  });

  it('limits segment targets to 5 on every plan', async () => {
    expectInvalid(await send(team, { targetType: 'segment', targetIds: ids(6), body: 'b' }), '/targetIds');
  });

  it('requires body or templateId', async () => {
    expectInvalid(await send(team, { targetType: 'device', targetIds: ['d'], title: 'only a title' }), '/body');
  });

  it('names every offending field of a bad request', async () => {
    const response = await send(team, {
      targetType: 'topic',
      targetIds: [],
      body: 5,
      data: { nested: { x: 1 } },
      sendAt: 'tomorrow',
    });
    expect(response.status).toBe(400);
    const paths = response.body.error.details.map((detail: { path: string }) => detail.path).sort();
    expect(paths).toEqual(['/body', '/data/nested', '/sendAt', '/targetIds', '/targetType']);
    // Keys a gateway keeps for itself: FCM would refuse every Android and web push, APNs could not carry aps; and the
    // notification id every push carries, which the app reports clicks with.
    const reserved = await send(team, {
      targetType: 'userId',
      targetIds: ['a'],
      body: 'b',
      data: {
        from: 'x',
        message_type: 'x',
        google_id: 'x',
        gcmKey: 'x',
        aps: 'x',
        notificationId: 'x',
        fromCity: 'fine',
      },
    });
    expect(reserved.status).toBe(400);
    expect(reserved.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([
      '/data/from',
      '/data/message_type',
      '/data/google_id',
      '/data/gcmKey',
      '/data/aps',
      '/data/notificationId',
    ]);
    const missingBody = await send(team, { targetType: 'user', targetIds: ['a'] });
    expect(missingBody.body.error.details).toEqual([
      { path: '/body', message: 'is required unless templateId is given' },
      { path: '/targetType', message: 'must be one of segment, userId, device' },
    ]);
  });

  it('names the fields past the schema too (plan limit, Liquid, sendAt) when the schema also fails', async () => {
    const response = await send(starter, {
      targetType: 'userId',
      targetIds: ['a', 'b'],
      title: 'Hi {{ user',
      body: 'ok',
      sendAt: new Date(Date.now() + 400 * 24 * 60 * 60 * 1000).toISOString(),
      bogus: 1,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { path: '/bogus', message: 'is not a known field' },
      { path: '/targetIds', message: 'allows at most 1 ids for targetType userId on the starter plan' },
      { path: '/title', message: expect.stringContaining('is not a valid Liquid template') },
      { path: '/sendAt', message: 'must be at most 365 days ahead' },
    ]);
  });

  it('refuses inline content that is not valid Liquid', async () => {
    expectInvalid(await send(team, { targetType: 'device', targetIds: ['d'], body: 'Hi {{ device.id ' }), '/body');
  });

  it('answers 404 for an unknown template or segment', async () => {
    const template = await send(team, { targetType: 'device', targetIds: ['d'], templateId: 'missing' });
    expect(template.status).toBe(404);
    expect(template.body.error.code).toBe('not_found');
    const segment = await send(team, { targetType: 'segment', targetIds: ['nope'], body: 'b' });
    expect(segment.status).toBe(404);
    expect(segment.body.error.message).toContain('"nope"');
  });

  it("answers 404 naming every unknown device, another project's too, and 200 once all are known (CONTRACTS §1)", async () => {
    await registerDevice(team, 'phone-of-team');
    await registerDevice(starter, 'phone-of-starter');
    const unknown = await send(team, {
      targetType: 'device',
      targetIds: ['phone-of-team', 'ghost-1', 'phone-of-starter'],
      body: 'b',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({
      code: 'not_found',
      message: expect.stringMatching(
        /^No device "ghost-1", "phone-of-starter" in this project\. With targetType "device"/,
      ),
    });
    expect((await send(team, { targetType: 'device', targetIds: ['phone-of-team'], body: 'b' })).status).toBe(200);
  });

  it('accepts a known segment', async () => {
    await storeSegment('vip');
    expect((await send(team, { targetType: 'segment', targetIds: ['vip'], body: 'b' })).status).toBe(200);
    const foreign = await send(starter, { targetType: 'segment', targetIds: ['vip'], body: 'b' });
    expect(foreign.status).toBe(404);
  });

  it("answers 404 for an unknown notification or another project's", async () => {
    const created = await send(team, { targetType: 'device', targetIds: ['d'], body: 'b' });
    expect(
      (await ingress.request('GET', `/v1/projects/${team.projectId}/notifications/nope`, { key: team.apiKey })).status,
    ).toBe(404);
    expect(
      (
        await ingress.request('GET', `/v1/projects/${starter.projectId}/notifications/${created.body.data.id}`, {
          key: starter.apiKey,
        })
      ).status,
    ).toBe(404);
  });
});

describe('Idempotency-Key and sendAt (CONTRACTS §6)', () => {
  it('answers the same id for the same key and queues one send', async () => {
    const body = { targetType: 'device', targetIds: ['d'], body: 'once' };
    const first = await send(team, body, { 'idempotency-key': 'order-42' });
    const again = await send(team, body, { 'idempotency-key': 'order-42' });
    const otherKey = await send(team, body, { 'idempotency-key': 'order-43' });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(otherKey.body.data.id).not.toBe(first.body.data.id);
    expect(await ingress.context.models.Notification.countDocuments({ projectId: team.projectId, body: 'once' })).toBe(
      2,
    );
    const jobs = await ingress.context.queues.send.getJobs(['waiting', 'delayed', 'active', 'completed']);
    expect(jobs.filter((job) => job.id === first.body.data.id)).toHaveLength(1);
  });

  it('refuses the same key with another body with a 422 and sends nothing for it (CONTRACTS §1, §6)', async () => {
    const body = { targetType: 'device', targetIds: ['d'], body: 'receipt for order 77' };
    const first = await send(team, body, { 'idempotency-key': 'order-77' });
    const reused = await send(team, { ...body, body: 'another message' }, { 'idempotency-key': 'order-77' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(reused.body.error.details).toEqual([{ path: '/headers/idempotency-key', message: expect.any(String) }]);
    expect(
      await ingress.context.models.Notification.countDocuments({ projectId: team.projectId, body: 'another message' }),
    ).toBe(0);
    // The first request's body still answers the first id.
    expect((await send(team, body, { 'idempotency-key': 'order-77' })).body.data.id).toBe(first.body.data.id);
  });

  it('answers 422 to one of two requests racing with one key and different bodies, and stores one notification', async () => {
    const body = { targetType: 'device', targetIds: ['d'], body: 'race one' };
    const answers = await Promise.all([
      send(team, body, { 'idempotency-key': 'race-1' }),
      send(team, { ...body, body: 'race two' }, { 'idempotency-key': 'race-1' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(
      await ingress.context.models.Notification.countDocuments({
        projectId: team.projectId,
        body: { $in: ['race one', 'race two'] },
      }),
    ).toBe(1);
  });

  it('answers the same id to a repeat after the segment it targets was deleted (CONTRACTS §6)', async () => {
    await storeSegment('short-lived');
    const body = {
      targetType: 'segment',
      targetIds: ['short-lived'],
      body: 'later',
      sendAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    };
    const first = await send(team, body, { 'idempotency-key': 'campaign-7' });
    expect(first.status).toBe(200);
    await ingress.context.models.Segment.deleteOne({ _id: 'short-lived' });
    const again = await send(team, body, { 'idempotency-key': 'campaign-7' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await send(team, body, { 'idempotency-key': 'campaign-8' })).status).toBe(404);
  });

  it('keeps keys of different projects apart', async () => {
    const body = { targetType: 'device', targetIds: ['d'], body: 'b' };
    const mine = await send(team, body, { 'idempotency-key': 'shared' });
    const theirs = await send(starter, body, { 'idempotency-key': 'shared' });
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('schedules a send with sendAt as a delayed job', async () => {
    const sendAt = new Date(Date.now() + 60 * 60 * 1000);
    const response = await send(team, {
      targetType: 'device',
      targetIds: ['d'],
      body: 'later',
      sendAt: sendAt.toISOString(),
    });
    const job = await ingress.context.queues.send.getJob(response.body.data.id);
    expect(await job?.getState()).toBe('delayed');
    expect(Math.abs(job!.timestamp + job!.delay - sendAt.getTime())).toBeLessThan(5000);
  });
});
