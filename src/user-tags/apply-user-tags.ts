import type { Models } from '../models/index.ts';
import { maxTagsPerDevice } from '../schemas/tags.ts';
import { tagCountAfter } from '../devices/apply-tag-changes.ts';
import { changeDevice } from '../devices/change-device.ts';
import { deviceKey, type DeviceDocument } from '../models/device.ts';
import { inChunks } from '../infra/chunks.ts';
import type { UserDeviceView } from '../schemas/user-tags.ts';
import type { TagUpdateJob, TagUpdateResult } from '../queues/tag-update.ts';

/**
 * Whole devices, read from the primary: applyUserTags writes each one guarded by the revision read here. On its own
 * so that the query-plan tests explain it as sent.
 */
export const readUserDevices = (models: Models, job: Pick<TagUpdateJob, 'projectId' | 'userId'>) =>
  models.Device.find({ projectId: job.projectId, userId: job.userId })
    .sort({ deviceId: 1 })
    .read('primary')
    .lean<DeviceDocument[]>();

/** The user's devices with their tags as they are now. */
export async function userDeviceViews(
  models: Models,
  job: Pick<TagUpdateJob, 'projectId' | 'userId'>,
): Promise<UserDeviceView[]> {
  const devices = await readUserDevices(models, job);
  return devices.map(
    (device): UserDeviceView => ({ id: device.deviceId, userId: job.userId, tags: device.tags ?? {} }),
  );
}

/**
 * Changes every device of the user, each with the guarded update the SDK routes use (changeDevice), within the tag
 * limit and only while the device is still the user's: a device relinked or deleted meanwhile is left out, unless
 * the change would have left it as it was when read, in which case nothing is written and it is answered as read.
 * Either every device takes the change or, when one would go over the limit, none does; that check is made on a read
 * of the devices before writing, not under a lock or in a multi-document transaction. So a device that a concurrent SDK
 * write fills between that read and its own update is refused by its guard, checked again, and reported over the
 * limit while the user's other devices keep the change. We accept that narrow race (the device must be within a few
 * tags of the limit and written in those few milliseconds) rather than make every tag update a transaction.
 */
export async function applyUserTags(models: Models, job: TagUpdateJob): Promise<TagUpdateResult> {
  const devices = await readUserDevices(models, job);
  const overLimit = devices
    .map((device) => ({ deviceId: device.deviceId, tagCount: tagCountAfter(device.tags ?? {}, job.tags) }))
    .filter((device) => device.tagCount > maxTagsPerDevice);
  if (overLimit.length > 0) return { overLimit };
  const changed: UserDeviceView[] = [];
  // One guarded update per device, not a bulk write, which would not say which devices its guards refused; at most a
  // chunk of them in flight at once.
  for (const chunk of inChunks(devices)) {
    const results = await Promise.all(
      chunk.map((device) =>
        changeDevice(
          models,
          { _id: deviceKey(job.projectId, device.deviceId), userId: job.userId },
          () => ({}),
          job.tags,
          device,
        ),
      ),
    );
    results.forEach((result, index) => {
      const deviceId = chunk[index]!.deviceId;
      if (result && 'tagCount' in result) overLimit.push({ deviceId, tagCount: result.tagCount });
      else if (result) changed.push({ id: deviceId, userId: job.userId, tags: result.device.tags ?? {} });
    });
  }
  return overLimit.length > 0 ? { overLimit } : { devices: changed };
}
