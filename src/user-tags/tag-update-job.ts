import type { UpdateUserTagsBody, UserDeviceView } from '../schemas/user-tags.ts';

export interface TagUpdateJob extends UpdateUserTagsBody {
  projectId: string;
}

/** Either the user's devices as they are after the change, or the devices the change would take over the tag limit. */
export type TagUpdateResult = { devices: UserDeviceView[] } | { overLimit: Array<{ deviceId: string; tagCount: number }> };

export const tagUpdateJobName = 'update-user-tags';
