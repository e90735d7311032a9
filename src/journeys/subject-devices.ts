import type { Models } from '../models/index.ts';
import type { SubjectType } from '../schemas/events.ts';
import type { Tags } from '../schemas/tags.ts';
import { deviceKey } from '../models/device.ts';

export interface SubjectDevice {
  projectId: string;
  deviceId: string;
  tags: Tags;
  timezone: string | null;
  createdAt: Date;
}

/** A traveller's devices: the device itself, or every device of the user (on the {projectId, userId} index). */
export async function subjectDevices(
  models: Models,
  projectId: string,
  subjectType: SubjectType,
  subjectId: string,
): Promise<SubjectDevice[]> {
  const filter = subjectType === 'device' ? { _id: deviceKey(projectId, subjectId) } : { projectId, userId: subjectId };
  const devices = await models.Device.find(filter, { deviceId: 1, tags: 1, timezone: 1, createdAt: 1 }).lean();
  return devices.map((device) => ({
    projectId,
    deviceId: device.deviceId,
    tags: (device.tags ?? {}) as Tags,
    timezone: (device.timezone as string | null | undefined) ?? null,
    createdAt: device.createdAt as Date,
  }));
}
