import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Job } from 'bullmq';
import { useIngress } from './support/ingress.ts';
import { deviceTagsIndexKey, ensureIndexes } from '../src/models/ensure-indexes.ts';
import { detectServerCapabilities } from '../src/models/server-capabilities.ts';
import { registerDevices } from './support/delivery-harness.ts';
import { purgeHistoryJobName } from '../src/queues/maintenance-schedules.ts';
import { maintenanceProcessor } from '../src/maintenance/maintenance-processor.ts';

const { ingress } = useIngress();

const day = 24 * 60 * 60 * 1000;

describe('indexes and history expiry', () => {
  it('expires history by TTL index, or schedules the purge job where the server refuses TTL', async () => {
    const { models, queues } = ingress.context;
    const { historyExpiry: expiry } = await ensureIndexes(models, await detectServerCapabilities(ingress.context.mongo), queues.maintenance, pino({ level: 'silent' }));
    const indexes = await models.History.collection.indexes();
    const ttl = indexes.find((index) => index.expireAfterSeconds !== undefined);
    const schedulers = await queues.maintenance.getJobSchedulers();
    if (expiry === 'ttl-index') {
      expect(ttl).toMatchObject({ key: { sentAt: 1 }, expireAfterSeconds: 30 * 24 * 60 * 60 });
    } else {
      expect(ttl).toBeUndefined();
      expect(schedulers.map((scheduler) => scheduler.key)).toEqual([purgeHistoryJobName]);
      expect(schedulers[0]!.every).toBe(10 * 60 * 1000);
    }
  });

  it('scheduling the purge from several processes keeps one schedule', async () => {
    const { models, queues } = ingress.context;
    const capabilities = await detectServerCapabilities(ingress.context.mongo);
    const expiries = await Promise.all([1, 2, 3].map(() => ensureIndexes(models, capabilities, queues.maintenance, pino({ level: 'silent' }))));
    expect((await queues.maintenance.getJobSchedulers()).length).toBe(expiries[0]!.historyExpiry === 'purge-job' ? 1 : 0);
  });

  it('the purge job deletes history older than 30 days and keeps the rest', async () => {
    const { models, queues } = ingress.context;
    const now = Date.now();
    const entry = (deviceId: string, ageMs: number) => ({
      projectId: 'p',
      deviceId,
      notificationId: `n-${deviceId}`,
      notification: { id: `n-${deviceId}`, title: 't', body: 'b' },
      sentAt: new Date(now - ageMs),
    });
    await models.History.insertMany([entry('old', 31 * day), entry('edge', 30 * day + 60_000), entry('recent', 29 * day), entry('new', 0)]);
    const job = new Job(queues.maintenance, purgeHistoryJobName, {});
    const result = await maintenanceProcessor({ models, log: pino({ level: 'silent' }), redis: ingress.context.redis, config: ingress.context.config })(job);
    expect(result).toEqual({ deleted: 2 });
    expect((await models.History.find({}, { deviceId: 1 }).lean()).map((doc) => doc.deviceId).sort()).toEqual(['new', 'recent']);
  });

  it('builds the wildcard index on device tags only on MongoDB; on FerretDB devices with tags still register', async () => {
    const { models, queues } = ingress.context;
    const capabilities = await detectServerCapabilities(ingress.context.mongo);
    const { deviceTagsIndex } = await ensureIndexes(models, capabilities, queues.maintenance, pino({ level: 'silent' }));
    const wildcard = (await models.Device.collection.indexes()).find((index) => 'tags.$**' in index.key);
    if (capabilities.wildcardIndexes) {
      expect(deviceTagsIndex).toBe('wildcard');
      expect(wildcard?.key).toEqual(deviceTagsIndexKey);
    } else {
      expect(deviceTagsIndex).toBe('none');
      expect(wildcard).toBeUndefined();
    }
    // The index would have been taken on the empty collection at start-up and then broken every insert.
    const project = await ingress.createProject('team');
    await registerDevices(ingress, project, [{ id: 'tagged', platform: 'ios', token: 'tok-tagged', tags: { plan: 'pro' } }]);
    const preview = await ingress.request('POST', `/v1/projects/${project.projectId}/segments`, {
      key: project.apiKey,
      body: { name: 'pro', match: 'all', conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }] },
    });
    expect(preview.status).toBe(200);
    const count = await ingress.request('GET', `/v1/projects/${project.projectId}/segments/${preview.body.data.id}/preview`, { key: project.apiKey });
    expect(count.body.data).toEqual({ count: 1, sample: ['tagged'] });
  });

  it('refuses a second device with the same id in a project', async () => {
    const { Device } = ingress.context.models;
    await Device.create({ _id: 'a', projectId: 'p', deviceId: 'same', platform: 'ios', pushToken: 't' });
    await expect(Device.create({ _id: 'b', projectId: 'p', deviceId: 'same', platform: 'ios', pushToken: 't' })).rejects.toMatchObject({ code: 11000 });
    await Device.create({ _id: 'c', projectId: 'other', deviceId: 'same', platform: 'ios', pushToken: 't' });
  });
});
