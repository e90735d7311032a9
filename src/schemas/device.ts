import { Type, type Static } from 'typebox';
import { platforms } from '../models/device.ts';
import { TagChanges, Tags } from './tags.ts';

export const UserId = Type.String({ minLength: 1, maxLength: 256 });

export const RegisterDeviceBody = Type.Object(
  {
    platform: Type.Union(platforms.map((platform) => Type.Literal(platform)), { errorMessage: `must be one of ${platforms.join(', ')}` }),
    pushToken: Type.String({ minLength: 1, maxLength: 4096 }),
    userId: Type.Optional(Type.Union([UserId, Type.Null()], { errorMessage: 'must be a user id of 1 to 256 characters, or null to unlink' })),
    tags: Type.Optional(TagChanges),
  },
  { additionalProperties: false },
);
export type RegisterDeviceBody = Static<typeof RegisterDeviceBody>;

export const UpdateDeviceBody = Type.Object(
  {
    userId: RegisterDeviceBody.properties.userId,
    tags: RegisterDeviceBody.properties.tags,
  },
  { additionalProperties: false },
);
export type UpdateDeviceBody = Static<typeof UpdateDeviceBody>;

/** The four fields of a device the spec shows (spec §2.2). */
export const DeviceView = Type.Object({
  id: Type.String(),
  userId: Type.Union([Type.String(), Type.Null()]),
  tags: Tags,
  isSubscribed: Type.Boolean(),
});
export type DeviceView = Static<typeof DeviceView>;
