import type { Redis } from 'ioredis';
import type { Models } from '../models/index.ts';
import { maxTagsPerDevice, type Tags } from '../schemas/tags.ts';
import { applyTagChanges, tagCountAfter } from '../devices/apply-tag-changes.ts';
import { deviceLockKey } from '../devices/device-store.ts';
import { deviceKey } from '../models/device.ts';
import { withRedisLocks } from '../infra/redis-lock.ts';
import { inChunks } from '../infra/chunks.ts';
import type { UserDeviceView } from '../schemas/user-tags.ts';
import type { TagUpdateJob, TagUpdateResult } from './tag-update-job.ts';

export interface TagUpdateDeps {
  models: Models;
  redis: Redis;
  queuePrefix: string;
}

const readUserDevices = (models: Models, job: Pick<TagUpdateJob, 'projectId' | 'userId'>) =>
  models.Device.find({ projectId: job.projectId, userId: job.userId }, { _id: 0, deviceId: 1, tags: 1 }).sort({ deviceId: 1 }).lean();

/** The user's devices with their tags as they are now. */
export async function userDeviceViews(models: Models, job: Pick<TagUpdateJob, 'projectId' | 'userId'>): Promise<UserDeviceView[]> {
  const devices = await readUserDevices(models, job);
  return devices.map((device): UserDeviceView => ({ id: device.deviceId, userId: job.userId, tags: (device.tags ?? {}) as Tags }));
}

/**
 * Changes every device of the user in one bulk write (in chunks past 50 devices), under the same per-device locks as the SDK device routes
 * (FerretDB 1.x loses one of two concurrent updates of a document). Under the locks the tag limit is checked
 * against what each device really holds: either every device takes the change or, when one would go over the
 * limit, none does. Each device's whole tag object is written, merged here as the SDK routes merge it: a $set of
 * tags.<key> is refused by FerretDB when the key starts or ends with a space ("contains an empty field name"),
 * though CONTRACTS §4 allows such keys.
 */
export async function applyUserTags(deps: TagUpdateDeps, job: TagUpdateJob): Promise<TagUpdateResult> {
  const candidates = await readUserDevices(deps.models, job);
  if (candidates.length === 0) return { devices: [] };
  const lockKeys = candidates.map((device) => deviceLockKey(deps.queuePrefix, job.projectId, device.deviceId));
  return withRedisLocks(deps.redis, lockKeys, async () => {
    // Read again under the locks: a device may have been relinked to another user meanwhile.
    const locked = new Set(candidates.map((device) => device.deviceId));
    const devices = (await readUserDevices(deps.models, job)).filter((device) => locked.has(device.deviceId));
    const overLimit = devices
      .map((device) => ({ deviceId: device.deviceId, tagCount: tagCountAfter((device.tags ?? {}) as Tags, job.tags) }))
      .filter((device) => device.tagCount > maxTagsPerDevice);
    if (overLimit.length > 0) return { overLimit };
    const changed = devices.map((device): UserDeviceView => ({ id: device.deviceId, userId: job.userId, tags: applyTagChanges((device.tags ?? {}) as Tags, job.tags) }));
    for (const chunk of inChunks(changed)) {
      await deps.models.Device.bulkWrite(
        chunk.map((device) => ({ updateOne: { filter: { _id: deviceKey(job.projectId, device.id) }, update: { $set: { tags: device.tags } } } })),
        { ordered: false },
      );
    }
    return { devices: changed };
  });
}
