import { Type, type Static } from 'typebox';
import { DeviceId, PageLimit } from './common.ts';
import { ServerDeviceView, UserId } from './device.ts';
import { TagKey, maxTagValueLength } from './tags.ts';
import { platforms } from './platforms.ts';

export const maxDevicesPerPage = 500;

export const ListDevicesQuery = Type.Object(
  {
    userId: Type.Optional(UserId),
    tag: Type.Optional(TagKey),
    /** Matches the tag's value as text or, when it reads as one, as a number; without it, any device that has the tag. */
    value: Type.Optional(Type.String({ maxLength: maxTagValueLength })),
    /** The devices whose id starts with it (a range of the _id index), as a picker searches while one types. */
    idPrefix: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9._:-]{1,128}$',
        errorMessage: 'must be 1 to 128 characters of A-Z a-z 0-9 . _ : -',
      }),
    ),
    limit: PageLimit(maxDevicesPerPage, 50),
    after: Type.Optional(DeviceId),
    /** `newest`: newest first, paged with before (a device id), filtered by platform and subscribed. */
    order: Type.Optional(Type.Literal('newest')),
    platform: Type.Optional(Type.Enum(platforms)),
    subscribed: Type.Optional(Type.Boolean()),
    before: Type.Optional(DeviceId),
  },
  {
    additionalProperties: false,
    dependencies: { value: ['tag'] },
    errorMessage: 'value filters a tag: give tag with it',
  },
);
export type ListDevicesQuery = Static<typeof ListDevicesQuery>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** Why and when the gateway's answer unsubscribed the device (CONTRACTS §9); both null while it is subscribed. */
export const DeviceSubscription = Type.Object({
  isSubscribed: Type.Boolean(),
  unsubscribedAt: NullableString,
  reason: NullableString,
});
export type DeviceSubscription = Static<typeof DeviceSubscription>;

export const DeviceListItem = Type.Object({
  ...ServerDeviceView.properties,
  platform: Type.Enum(platforms),
  subscription: DeviceSubscription,
});
export type DeviceListItem = Static<typeof DeviceListItem>;
