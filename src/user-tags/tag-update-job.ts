import type { UpdateUserTagsBody, UserDeviceView } from '../schemas/user-tags.ts';

export interface TagUpdateJob extends UpdateUserTagsBody {
  projectId: string;
}

/**
 * The user's devices as they are after the change, the devices the change would take over the tag limit, or nothing
 * when the request that queued it withdrew it.
 */
export type TagUpdateResult =
  | { devices: UserDeviceView[] }
  | { overLimit: Array<{ deviceId: string; tagCount: number }> }
  | { withdrawn: true };

export const tagUpdateJobName = 'update-user-tags';
