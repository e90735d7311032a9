import { describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { createModels } from '../../src/models/index.ts';
import { applyUserTags } from '../../src/user-tags/apply-user-tags.ts';
import { startIngress, useIngress, type TestIngress } from '../support/ingress.ts';
import { startTestWorkers } from '../support/workers.ts';
import { waitFor } from '../support/eventually.ts';
import { testConfig } from '../support/test-config.ts';
import type { CreatedProject } from '../../src/projects/create-project.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ workers: ['tag-update'], projects: { project: 'team' } });

function registerDevice(
  target: TestIngress,
  owner: CreatedProject,
  deviceId: string,
  userId: string | null,
  tags: Record<string, unknown> = {},
) {
  return target.request('PUT', `/v1/sdk/projects/${owner.projectId}/devices/${deviceId}`, {
    key: owner.clientKey,
    body: { platform: 'ios', pushToken: `token-${deviceId}`, userId, tags },
  });
}
const changeUserTags = (body: unknown, method = 'PATCH', target = ingress, owner = project) =>
  target.request(method, `/v1/projects/${owner.projectId}/users/tags`, { key: owner.apiKey, body });
const readDevice = async (deviceId: string, target = ingress, owner = project) =>
  (await target.request('GET', `/v1/projects/${owner.projectId}/devices/${deviceId}`, { key: owner.apiKey })).body.data;

describe('PATCH and POST /users/tags (spec §4.2)', () => {
  it('changes the tags of every device of the user and answers them as they now are', async () => {
    await registerDevice(ingress, project, 'alice-phone', 'alice', { plan: 'free', old: 1 });
    await registerDevice(ingress, project, 'alice-tablet', 'alice', { theme: 'dark' });
    await registerDevice(ingress, project, 'bob-phone', 'bob', { plan: 'free' });
    const response = await changeUserTags({ userId: 'alice', tags: { plan: 'pro', score: 42, old: null } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        devices: [
          { id: 'alice-phone', userId: 'alice', tags: { plan: 'pro', score: 42 } },
          { id: 'alice-tablet', userId: 'alice', tags: { theme: 'dark', plan: 'pro', score: 42 } },
        ],
      },
    });
    expect((await readDevice('alice-tablet')).tags).toEqual({ theme: 'dark', plan: 'pro', score: 42 });
    expect((await readDevice('bob-phone')).tags).toEqual({ plan: 'free' });
  });

  it('takes keys that start or end with whitespace, as CONTRACTS §4 allows, and deletes them with null', async () => {
    await registerDevice(ingress, project, 'dana-phone', 'dana', { kept: 1 });
    const keys = { ' leading': 'a', 'trailing ': 'b', '\tboth\u00a0': 3 };
    const added = await changeUserTags({ userId: 'dana', tags: keys });
    expect(added.status).toBe(200);
    expect((await readDevice('dana-phone')).tags).toEqual({ kept: 1, ...keys });
    const deleted = await changeUserTags({ userId: 'dana', tags: { ' leading': null, 'trailing ': null } });
    expect(deleted.body.data.devices).toEqual([
      { id: 'dana-phone', userId: 'dana', tags: { kept: 1, '\tboth\u00a0': 3 } },
    ]);
    expect((await readDevice('dana-phone')).tags).toEqual({ kept: 1, '\tboth\u00a0': 3 });
  });

  it('takes POST on the same path, and answers an empty list for a user without devices', async () => {
    await registerDevice(ingress, project, 'carol-phone', 'carol');
    const posted = await changeUserTags({ userId: 'carol', tags: { vip: 1 } }, 'POST');
    expect(posted.body.data.devices).toEqual([{ id: 'carol-phone', userId: 'carol', tags: { vip: 1 } }]);
    const nobody = await changeUserTags({ userId: 'nobody', tags: { vip: 1 } });
    expect(nobody.status).toBe(200);
    expect(nobody.body).toEqual({ data: { devices: [] } });
  });

  it('writes each device of the user from the one read of them all: one find, then one update per device', async () => {
    await registerDevice(ingress, project, 'gus-phone', 'gus', { plan: 'free' });
    await registerDevice(ingress, project, 'gus-tablet', 'gus');
    const monitored = mongoose.createConnection(ingress.context.config.mongoUrl, { monitorCommands: true });
    try {
      await monitored.asPromise();
      const commands: string[] = [];
      monitored.getClient().on('commandStarted', (event) => {
        if (['find', 'update'].includes(event.commandName))
          commands.push(`${event.commandName} ${event.command[event.commandName]}`);
      });
      const result = await applyUserTags(createModels(monitored), {
        projectId: project.projectId,
        userId: 'gus',
        tags: { plan: 'pro' },
      });
      expect(result).toEqual({
        devices: [
          { id: 'gus-phone', userId: 'gus', tags: { plan: 'pro' } },
          { id: 'gus-tablet', userId: 'gus', tags: { plan: 'pro' } },
        ],
      });
      expect(commands).toEqual(['find devices', 'update devices', 'update devices']);
    } finally {
      await monitored.close();
    }
  });

  it('refuses a bad key or value with a 400 naming it, and changes nothing', async () => {
    await registerDevice(ingress, project, 'dave-phone', 'dave', { keep: 'me' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ 'a.b': 1 }, '/tags/a.b'],
      [{ $set: 1 }, '/tags/$set'],
      [{ ok: 1, nested: { x: 1 } }, '/tags/nested'],
      [{ ok: 1, flag: true }, '/tags/flag'],
      [{ long: 'x'.repeat(1025) }, '/tags/long'],
    ];
    for (const [tags, path] of cases) {
      const response = await changeUserTags({ userId: 'dave', tags });
      expect(response.status, path).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    expect((await changeUserTags({ tags: { a: 1 } })).status).toBe(400);
    expect((await changeUserTags({ userId: 'dave' })).status).toBe(400);
    expect((await readDevice('dave-phone')).tags).toEqual({ keep: 'me' });
  });

  it('applies concurrent updates of different keys, and concurrent SDK tag changes, without losing any', async () => {
    await registerDevice(ingress, project, 'erin-phone', 'erin');
    await registerDevice(ingress, project, 'erin-watch', 'erin');
    const userUpdates = Array.from({ length: 8 }, (_, index) =>
      changeUserTags({ userId: 'erin', tags: { [`user${index}`]: index } }),
    );
    const sdkUpdates = Array.from({ length: 4 }, (_, index) =>
      ingress.request('PATCH', `/v1/sdk/projects/${project.projectId}/devices/erin-phone`, {
        key: project.clientKey,
        body: { tags: { [`sdk${index}`]: index } },
      }),
    );
    const responses = await Promise.all([...userUpdates, ...sdkUpdates]);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const userKeys = Array.from({ length: 8 }, (_, index) => `user${index}`);
    const sdkKeys = Array.from({ length: 4 }, (_, index) => `sdk${index}`);
    expect(Object.keys((await readDevice('erin-phone')).tags).sort()).toEqual([...sdkKeys, ...userKeys].sort());
    expect(Object.keys((await readDevice('erin-watch')).tags).sort()).toEqual(userKeys.sort());
  });

  it('refuses a change that would take any device of the user over 100 tags, and changes no device', async () => {
    const ninetyNine = Object.fromEntries(Array.from({ length: 99 }, (_, index) => [`t${index}`, index]));
    await registerDevice(ingress, project, 'frank-full', 'frank', ninetyNine);
    await registerDevice(ingress, project, 'frank-empty', 'frank');
    const refused = await changeUserTags({ userId: 'frank', tags: { extra1: 1, extra2: 2 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.details[0].message).toContain('frank-full');
    expect(Object.keys((await readDevice('frank-full')).tags)).toHaveLength(99);
    expect((await readDevice('frank-empty')).tags).toEqual({});
    const swapped = await changeUserTags({ userId: 'frank', tags: { t0: null, extra1: 1 } });
    expect(swapped.status).toBe(200);
    const tagCounts = swapped.body.data.devices.map((device: { id: string; tags: object }) => [
      device.id,
      Object.keys(device.tags).length,
    ]);
    expect(tagCounts).toEqual([
      ['frank-empty', 1],
      ['frank-full', 99],
    ]);
    const filled = await changeUserTags({ userId: 'frank', tags: { extra2: 2 } });
    expect(filled.body.data.devices.map((device: { tags: object }) => Object.keys(device.tags).length)).toEqual([
      2, 100,
    ]);
  });
});

describe('when the tag-update worker is slow', () => {
  it('answers 503 past the bound with nothing changed, and a worker that comes later does not apply the change', async () => {
    const config = testConfig({ tagUpdateTimeoutMs: 300 });
    const slowIngress = await startIngress(config);
    try {
      const owner = await slowIngress.createProject('team');
      await registerDevice(slowIngress, owner, 'gina-phone', 'gina', { plan: 'free' });
      const response = await changeUserTags({ userId: 'gina', tags: { plan: 'pro' } }, 'PATCH', slowIngress, owner);
      expect(response.status).toBe(503);
      expect(response.body.error).toMatchObject({
        code: 'unavailable',
        message: expect.stringContaining('nothing was changed'),
      });
      const lateWorkers = await startTestWorkers(config, ['tag-update']);
      try {
        await waitFor(
          () => slowIngress.context.queues.tagUpdate.getCompletedCount(),
          (completed) => completed === 1,
        );
      } finally {
        await lateWorkers.close();
      }
      expect((await readDevice('gina-phone', slowIngress, owner)).tags).toEqual({ plan: 'free' });
    } finally {
      await slowIngress.close();
    }
  });
});

describe('what a change leaves in Redis', () => {
  it('keeps a finished change only as long as its request may wait, and nothing of it beside its job', async () => {
    const config = testConfig({ tagUpdateTimeoutMs: 1500 });
    const shortIngress = await startIngress(config);
    const shortWorkers = await startTestWorkers(config, ['tag-update']);
    try {
      const owner = await shortIngress.createProject('team');
      await registerDevice(shortIngress, owner, 'hugo-phone', 'hugo', { plan: 'free' });
      const queue = shortIngress.context.queues.tagUpdate;
      const redis = shortIngress.context.redis;
      const keysOfJob = async (jobId: string) =>
        (await redis.keys(`${config.queuePrefix}*`)).filter((key) => key.split(/[:{}]/).includes(jobId));
      const jobKey = (jobId: string) => queue.toKey(jobId);

      expect(
        (await changeUserTags({ userId: 'hugo', tags: { plan: 'pro' } }, 'PATCH', shortIngress, owner)).status,
      ).toBe(200);
      const [first] = await queue.getJobs(['completed']);
      expect(await keysOfJob(first!.id!)).toEqual([jobKey(first!.id!)]);

      // Twice the 1.5 s timeout, after which the next job to finish removes this one.
      await new Promise((resolve) => setTimeout(resolve, first!.finishedOn! + 3000 - Date.now() + 20));
      expect(
        (await changeUserTags({ userId: 'hugo', tags: { plan: 'team' } }, 'PATCH', shortIngress, owner)).status,
      ).toBe(200);
      const [second] = await queue.getJobs(['completed']);
      expect(second!.id).not.toBe(first!.id);
      expect(await keysOfJob(first!.id!)).toEqual([]);
      expect(await keysOfJob(second!.id!)).toEqual([jobKey(second!.id!)]);
      expect((await readDevice('hugo-phone', shortIngress, owner)).tags).toEqual({ plan: 'team' });
    } finally {
      await shortWorkers.close();
      await shortIngress.close();
    }
  });
});
