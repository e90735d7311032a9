import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { ensureIndexes } from '../../src/models/ensure-indexes.ts';
import { deviceTagsIndexKey } from '../../src/models/device.ts';

const { ingress } = useIngress();

describe('indexes', () => {
  it('expires history after 30 days through a TTL index on sentAt', async () => {
    const indexes = await ingress.context.models.History.collection.indexes();
    expect(indexes.find((index) => index.expireAfterSeconds !== undefined)).toMatchObject({
      key: { sentAt: 1 },
      expireAfterSeconds: 30 * 24 * 60 * 60,
    });
  });

  it('builds the compound wildcard index on device tags, and building every index again from several processes changes nothing', async () => {
    const { models } = ingress.context;
    const before = await models.Device.collection.indexes();
    await Promise.all([1, 2, 3].map(() => ensureIndexes(models)));
    const after = await models.Device.collection.indexes();
    expect(after.map((index) => index.key)).toEqual(before.map((index) => index.key));
    expect(after.find((index) => 'tags.$**' in index.key)?.key).toEqual(deviceTagsIndexKey);
  });

  it('builds no index on {projectId, deviceId}: _id holds both, so device writes keep one index fewer', async () => {
    // That every writer builds _id from both (deviceKey) is what test/device-concurrency.test.ts counts.
    const indexes = await ingress.context.models.Device.collection.indexes();
    expect(indexes.filter((index) => 'deviceId' in index.key)).toEqual([]);
    // The others each serve a read: users' devices, segment tags, the console's newest-first browse and overview.
    expect(indexes.map((index) => index.name).sort()).toEqual([
      '_id_',
      'projectId_1_createdAt_-1__id_-1',
      'projectId_1_isSubscribed_1_unsubscribedAt_-1',
      'projectId_1_tags.$**_1',
      'projectId_1_userId_1_platform_1',
    ]);
  });

  it('drops the {projectId, userId} index that {projectId, userId, platform} replaced, from several processes at once', async () => {
    const { models } = ingress.context;
    await models.Device.collection.createIndex({ projectId: 1, userId: 1 });
    await Promise.all([1, 2, 3].map(() => ensureIndexes(models)));
    const names = (await models.Device.collection.indexes()).map((index) => index.name);
    expect(names).toContain('projectId_1_userId_1_platform_1');
    expect(names).not.toContain('projectId_1_userId_1');
  });
});
