import type { Redis } from 'ioredis';
import type { Models } from '../models/index.ts';
import { maxTagsPerDevice, type TagChanges, type Tags } from '../schemas/tags.ts';
import { tagCountAfter } from '../devices/apply-tag-changes.ts';
import { deviceLockKey } from '../devices/device-store.ts';
import { withRedisLocks } from '../infra/redis-lock.ts';
import { inChunks } from '../infra/chunks.ts';
import type { UserDeviceView } from '../schemas/user-tags.ts';
import type { TagUpdateJob, TagUpdateResult } from './tag-update-job.ts';

export interface TagUpdateDeps {
  models: Models;
  redis: Redis;
  queuePrefix: string;
}

/** Tag keys are validated (no leading $, no dot), so each one is safe as the field path tags.<key>. */
function toUpdate(changes: TagChanges) {
  const set: Record<string, string | number> = {};
  const unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) unset[`tags.${key}`] = '';
    else set[`tags.${key}`] = value;
  }
  return { ...(Object.keys(set).length > 0 && { $set: set }), ...(Object.keys(unset).length > 0 && { $unset: unset }) };
}

const readUserDevices = (models: Models, job: TagUpdateJob) =>
  models.Device.find({ projectId: job.projectId, userId: job.userId }, { _id: 0, deviceId: 1, tags: 1 }).sort({ deviceId: 1 }).lean();

/**
 * Changes every device of the user in one bulk write (in chunks past 50 devices), under the same per-device locks as the SDK device routes
 * (FerretDB 1.x loses one of two concurrent updates of a document). Under the locks the tag limit is checked
 * against what each device really holds: either every device takes the change or, when one would go over the
 * limit, none does.
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
    const update = toUpdate(job.tags);
    if (Object.keys(update).length > 0) {
      for (const chunk of inChunks(devices)) {
        await deps.models.Device.collection.bulkWrite(
          chunk.map((device) => ({ updateOne: { filter: { projectId: job.projectId, deviceId: device.deviceId }, update } })),
          { ordered: false },
        );
      }
    }
    const after = await readUserDevices(deps.models, job);
    return { devices: after.filter((device) => locked.has(device.deviceId)).map((device): UserDeviceView => ({ id: device.deviceId, userId: job.userId, tags: (device.tags ?? {}) as Tags })) };
  });
}
