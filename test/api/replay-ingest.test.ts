import { beforeAll, describe, expect, it } from 'vitest';
import { Types } from 'mongoose';
import { countEvents } from '../../src/events/count-events.ts';
import { useIngress } from '../support/ingress.ts';
import { testConfig } from '../support/test-config.ts';
import { waitFor } from '../support/eventually.ts';
import { replayFromDashboard } from '../support/dashboard.ts';
import { eventCounts } from '../../src/events/pending-counts.ts';
import { redisKeys } from '../../src/infra/redis-keys.ts';

const adminToken = 'replay-ingest-admin';
const {
  ingress,
  workers,
  projects: { project },
} = useIngress({
  config: testConfig({ adminToken }),
  workers: ['tag-update', 'event-ingest'],
  projects: { project: 'team' },
});

beforeAll(async () => {
  for (const id of ['r1', 'r2']) {
    const registered = await ingress.request('PUT', `/v1/sdk/projects/${project.projectId}/devices/${id}`, {
      key: project.clientKey,
      body: { platform: 'android', pushToken: `tok-${id}`, userId: 'rita' },
    });
    expect(registered.status).toBe(200);
  }
});

const queues = () => ingress.context.queues;
const userTags = (tags: Record<string, unknown>) =>
  ingress.request('PATCH', `/v1/projects/${project.projectId}/users/tags`, {
    key: project.apiKey,
    body: { userId: 'rita', tags },
  });

describe('replaying ingest jobs from the dashboard', () => {
  it('tag-update: replaying an old completed update does not overwrite what came after it', async () => {
    expect((await userTags({ plan: 'pro' })).status).toBe(200);
    const [first] = await queues().tagUpdate.getJobs(['completed']);
    expect((await userTags({ plan: 'free' })).status).toBe(200);

    await replayFromDashboard(ingress, adminToken, queues().tagUpdate, first!);
    const device = await ingress.request('GET', `/v1/projects/${project.projectId}/devices/r1`, {
      key: project.apiKey,
    });
    expect(device.body.data.tags).toEqual({ plan: 'free' });
  });

  it('event-ingest: a replayed job stores no event twice and counts nothing twice', async () => {
    const events = [
      { type: 'purchase', subjectType: 'user', subjectId: 'rita', data: { amount: 10 } },
      { type: 'purchase', subjectType: 'device', subjectId: 'r2', data: { amount: 20 } },
    ];
    const response = await ingress.request('POST', `/v1/projects/${project.projectId}/events`, {
      key: project.apiKey,
      body: { events },
    });
    expect(response.body.data).toEqual({ success: 2, error: [] });
    const stored = () =>
      workers.context.models.Event.countDocuments({ projectId: project.projectId, type: 'purchase' });
    await waitFor(stored, (count) => count === 2);
    const purchaseJob = async () =>
      (await queues().eventIngest.getJobs(['completed'])).find((candidate) =>
        candidate.data.events.some((event: { type: string }) => event.type === 'purchase'),
      );
    const job = (await waitFor(purchaseJob, (found) => found !== undefined))!;
    const countFor = () =>
      countEvents(workers.context, {
        projectId: project.projectId,
        userId: 'rita',
        type: 'purchase',
        withinDays: 1,
      });
    const before = await countFor();
    expect(before).toBe(2);

    await replayFromDashboard(ingress, adminToken, queues().eventIngest, job);
    expect(await stored()).toBe(2);
    expect(await countFor()).toBe(before);
  });

  it('event-ingest: a job replayed after its counts marker expired (an hour) still counts nothing twice', async () => {
    const queue = queues().eventIngest;
    const jobId = new Types.ObjectId().toHexString();
    // Three days old, so its count is read from the daily counters rather than from the events of today.
    const receivedAt = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString();
    await queue.add(
      'ingest',
      {
        projectId: project.projectId,
        receivedAt,
        events: [{ type: 'renewal', subjectType: 'device', subjectId: 'r1', data: {} }],
      },
      { jobId },
    );
    const job = (await waitFor(
      () => queue.getJob(jobId),
      (found) => found?.finishedOn !== undefined,
    ))!;
    const renewals = () =>
      countEvents(workers.context, { projectId: project.projectId, deviceId: 'r1', type: 'renewal', withinDays: 7 });
    expect(await renewals()).toBe(1);
    const names = redisKeys.gatheredCounts(ingress.context.config.queuePrefix, eventCounts.name, project.projectId);
    expect(await ingress.context.redis.del(names.recorded(jobId))).toBe(1);
    await replayFromDashboard(ingress, adminToken, queue, job);
    expect(await renewals()).toBe(1);
  });
});
