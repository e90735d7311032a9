import type { Types } from 'mongoose';
import type { Models } from '../models/index.ts';
import type { DeviceDocument } from '../models/device.ts';
import { maxTagsPerDevice, type TagChanges, type Tags } from '../schemas/tags.ts';
import { tagCountAfter } from '../devices/apply-tag-changes.ts';
import type { TagUpdateJob, TagUpdateResult } from './tag-update-job.ts';

const maxAttempts = 20;

/** Tag keys are validated (no leading $, no dot), so each one is safe as the field path tags.<key>. */
function toUpdate(changes: TagChanges) {
  const set: Record<string, string | number> = {};
  const unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) unset[`tags.${key}`] = '';
    else set[`tags.${key}`] = value;
  }
  return {
    ...(Object.keys(set).length > 0 && { $set: set }),
    ...(Object.keys(unset).length > 0 && { $unset: unset }),
    // The SDK device routes guard their read-modify-write with the revision: bumping it keeps them from overwriting this change.
    $inc: { revision: 1 },
  };
}

type Snapshot = Pick<DeviceDocument, 'deviceId' | 'tags' | 'revision'> & { _id: Types.ObjectId };

/**
 * Changes every device of the user in one bulk write. Each write is guarded by the revision read just before, so the
 * tag limit is checked against what each device really holds; when another change slipped in, the devices are read
 * again and the (idempotent) change is reapplied. Either every device takes the change or none does.
 */
export async function applyUserTags(models: Models, job: TagUpdateJob): Promise<TagUpdateResult> {
  const update = toUpdate(job.tags);
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const devices = await models.Device.find({ projectId: job.projectId, userId: job.userId }, { deviceId: 1, tags: 1, revision: 1 }).lean<Snapshot[]>();
    const overLimit = devices
      .map((device) => ({ deviceId: device.deviceId, tagCount: tagCountAfter((device.tags ?? {}) as Tags, job.tags) }))
      .filter((device) => device.tagCount > maxTagsPerDevice);
    if (overLimit.length > 0) return { overLimit };
    if (devices.length === 0) return { devices: [] };
    const result = await models.Device.collection.bulkWrite(
      devices.map((device) => ({ updateOne: { filter: { _id: device._id, revision: device.revision }, update } })),
      { ordered: false },
    );
    if (result.matchedCount === devices.length) return { devices: await readUserDevices(models, job) };
  }
  throw new Error(`the devices of user "${job.userId}" kept changing during ${maxAttempts} attempts`);
}

async function readUserDevices(models: Models, job: TagUpdateJob) {
  const devices = await models.Device.find({ projectId: job.projectId, userId: job.userId }, { _id: 0, deviceId: 1, tags: 1 })
    .sort({ deviceId: 1 })
    .lean();
  return devices.map((device) => ({ id: device.deviceId, userId: job.userId, tags: (device.tags ?? {}) as Tags }));
}
