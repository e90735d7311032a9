import { Type, type Static } from 'typebox';
import { platforms } from './platforms.ts';
import { TagChanges, Tags } from './tags.ts';
import { FiniteNumber } from './common.ts';
import { Id } from './text.ts';

export const UserId = Id(256);

export const LanguageTag = Type.String({
  maxLength: 35,
  format: 'language-tag',
  errorMessage: 'must be a BCP 47 language tag such as ko or pt-BR',
});

export const TimeZone = Type.String({
  maxLength: 64,
  format: 'time-zone',
  errorMessage: 'must be an IANA time zone name such as Asia/Seoul',
});

/** A device's language and time zone (CONTRACTS §3): set by the SDK at registration or later, null clears them. */
const localeFields = {
  language: Type.Optional(
    Type.Union([LanguageTag, Type.Null()], {
      errorMessage: 'must be a BCP 47 language tag such as ko or pt-BR, or null',
    }),
  ),
  timezone: Type.Optional(
    Type.Union([TimeZone, Type.Null()], { errorMessage: 'must be an IANA time zone name such as Asia/Seoul, or null' }),
  ),
};

const base64url = (bytes: number, what: { format: string; errorMessage: string } | null = null) => {
  const length = Math.ceil((bytes * 4) / 3);
  return Type.String({
    pattern: `^[A-Za-z0-9_-]{${length}}={0,2}$`,
    errorMessage: `must be ${bytes} bytes in URL-safe base64`,
    ...what,
  });
};

/** A standard Web Push subscription as PushSubscription.toJSON() gives it (RFC 8030 endpoint, RFC 8291 keys). */
export const WebPushSubscription = Type.Object(
  {
    endpoint: Type.String({
      maxLength: 2048,
      pattern: '^https://[^\\s]+$',
      format: 'uri',
      errorMessage: 'must be the https:// URL of the subscription',
    }),
    keys: Type.Object(
      {
        p256dh: base64url(65, {
          format: 'p256-public-key',
          errorMessage: 'must be a P-256 public key (65 bytes, uncompressed) in URL-safe base64',
        }),
        auth: base64url(16),
      },
      { additionalProperties: false },
    ),
    /** Sent by browsers, not kept: push services report an expired subscription with 404 or 410 anyway. */
    expirationTime: Type.Optional(Type.Union([FiniteNumber(), Type.Null()])),
  },
  { additionalProperties: false },
);

export const RegisterDeviceBody = Type.Object(
  {
    platform: Type.Enum(platforms, { errorMessage: `must be one of ${platforms.join(', ')}` }),
    // FCM and APNs tokens are printable ASCII; a space or control character could only make every push fail.
    pushToken: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        pattern: '^[!-~]*$',
        errorMessage: 'must be 1 to 4096 printable ASCII characters, without spaces',
      }),
    ),
    webPush: Type.Optional(WebPushSubscription),
    userId: Type.Optional(
      Type.Union([UserId, Type.Null()], {
        errorMessage: 'must be a user id of 1 to 256 characters (not only spaces, without NUL), or null to unlink',
      }),
    ),
    tags: Type.Optional(TagChanges),
    ...localeFields,
  },
  {
    additionalProperties: false,
    // A device has one way of being reached: an FCM or APNs token, or (websites) a standard Web Push subscription.
    // A browser that has not (or no longer) subscribed gives neither: it is stored, unsubscribed, for its user and tags.
    if: { required: ['webPush'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: {
      properties: {
        platform: { const: 'web', errorMessage: 'must be web with a webPush subscription' },
        pushToken: { not: {}, errorMessage: 'must not be given with webPush' },
      },
    },
    else: {
      if: { properties: { platform: { const: 'web' } } },
      else: { required: ['pushToken'], errorMessage: 'is required for android and ios devices' },
    },
  },
);
export type RegisterDeviceBody = Static<typeof RegisterDeviceBody>;

export const UpdateDeviceBody = Type.Object(
  {
    userId: RegisterDeviceBody.properties.userId,
    tags: RegisterDeviceBody.properties.tags,
    ...localeFields,
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

/** The server API's device: the spec's four fields, and the language and time zone when the device has them. */
export const ServerDeviceView = Type.Object({
  ...DeviceView.properties,
  language: Type.Optional(Type.String()),
  timezone: Type.Optional(Type.String()),
});
export type ServerDeviceView = Static<typeof ServerDeviceView>;
