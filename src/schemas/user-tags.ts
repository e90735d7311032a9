import { Type, type Static } from 'typebox';
import { UserId } from './device.ts';
import { TagChanges, Tags } from './tags.ts';

export const UpdateUserTagsBody = Type.Object({ userId: UserId, tags: TagChanges }, { additionalProperties: false });
export type UpdateUserTagsBody = Static<typeof UpdateUserTagsBody>;

export const UserDeviceView = Type.Object({ id: Type.String(), userId: Type.String(), tags: Tags });
export type UserDeviceView = Static<typeof UserDeviceView>;

export const UpdateUserTagsResult = Type.Object({ devices: Type.Array(UserDeviceView) });
