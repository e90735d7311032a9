import type { BatchDevice } from '../queues/deliver.ts';

/** A device as the fan-out reads it: its _id is the natural key (the device model's), by which the fan-out resumes. */
export interface TargetDevice extends BatchDevice {
  _id: string;
}

/** A MongoDB projection of the fields above, with only the tags the message reads. */
export type TargetProjection = Record<string, 1>;

export function targetProjection(tags: 'all' | string[], { language = false } = {}): TargetProjection {
  const projection: TargetProjection = {
    deviceId: 1,
    platform: 1,
    pushToken: 1,
    webPushKeys: 1,
    userId: 1,
    timezone: 1,
  };
  if (language) projection.language = 1;
  if (tags === 'all') projection.tags = 1;
  else for (const name of tags) projection[`tags.${name}`] = 1;
  return projection;
}
