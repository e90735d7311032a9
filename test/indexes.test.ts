import { describe, expect, it } from 'vitest';
import { useIngress } from './support/ingress.ts';
import { ensureIndexes } from '../src/models/ensure-indexes.ts';
import { deviceTagsIndexKey } from '../src/models/device.ts';

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

  it('refuses a second device with the same id in a project', async () => {
    const { Device } = ingress.context.models;
    await Device.create({ _id: 'a', projectId: 'p', deviceId: 'same', platform: 'ios', pushToken: 't' });
    await expect(
      Device.create({ _id: 'b', projectId: 'p', deviceId: 'same', platform: 'ios', pushToken: 't' }),
    ).rejects.toMatchObject({ code: 11000 });
    await Device.create({ _id: 'c', projectId: 'other', deviceId: 'same', platform: 'ios', pushToken: 't' });
  });
});
