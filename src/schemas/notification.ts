import { Type, type Static } from 'typebox';
import { DeviceId, FiniteNumber, ProjectParams, PageLimit, IsoTime, notBlank, KeyedBy } from './common.ts';
import { maxTagKeyLength, tagKeyPattern } from './tags.ts';
import { Id, Text } from './text.ts';
import { SendTimingFields } from './send-timing.ts';
import { Experiment, ExperimentView, Variants, VariantView } from './experiment.ts';
import { contentOptionFields, deliveryOptionFields, isSilent, MessageOptions, silentRule } from './message-options.ts';

export const notificationStatuses = ['queued', 'sending', 'completed', 'failed', 'canceled'] as const;
export const targetTypes = ['segment', 'userId', 'device'] as const;
export type TargetType = (typeof targetTypes)[number];

export const maxTargetIds = 100;

const DataValue = Type.Union([Type.String({ maxLength: 4096 }), FiniteNumber(), Type.Boolean(), Type.Null()], {
  errorMessage: 'must be a string, a finite number, a boolean or null',
});

/**
 * Stored as fields of the notification document, so the tag key rule applies (MongoDB refuses a '.' or a leading '$'
 * there).
 */
const DataKey = Type.String({
  minLength: 1,
  maxLength: maxTagKeyLength,
  pattern: tagKeyPattern,
  errorMessage: `data keys are 1 to ${maxTagKeyLength} characters, must not start with $ and must not contain . or NUL`,
});

/** The request's extra variables: flat, so that every value also fits a push payload's string map. */
export const NotificationData = KeyedBy(DataValue, {
  propertyNames: DataKey,
  maxProperties: 100,
  errorMessage: 'must be an object of at most 100 keys with string, number, boolean or null values',
});
export type NotificationData = Static<typeof NotificationData>;

export const SendNotificationBody = Type.Object(
  {
    targetType: Type.Enum(targetTypes, { errorMessage: `must be one of ${targetTypes.join(', ')}` }),
    targetIds: Type.Array(Id(256), {
      minItems: 1,
      maxItems: maxTargetIds,
      errorMessage: `must be an array of 1 to ${maxTargetIds} ids`,
    }),
    templateId: Type.Optional(Id(128)),
    title: Type.Optional(Text(1024)),
    body: Type.Optional(Text(4096)),
    url: Type.Optional(Text(2048)),
    imageUrl: Type.Optional(Text(2048)),
    data: Type.Optional(NotificationData),
    sendAt: Type.Optional(IsoTime()),
    ...SendTimingFields,
    ...contentOptionFields,
    ...deliveryOptionFields,
    variants: Type.Optional(Variants),
    experiment: Type.Optional(Experiment),
  },
  {
    additionalProperties: false,
    // In the schema rather than after it, so that these are named beside every other offending field.
    allOf: [
      {
        // Without a template the body is the message: required, and not blank. With one it is ignored; a silent push
        // has none.
        if: { not: { anyOf: [{ required: ['templateId'] }, { required: ['variants'] }, isSilent] } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
        then: {
          required: ['body'],
          properties: { body: notBlank },
          errorMessage: 'is required unless templateId is given',
        },
      },
      silentRule(true),
      {
        if: { required: ['targetType'], properties: { targetType: { const: 'device' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
        then: { properties: { targetIds: { items: DeviceId } } },
      },
    ],
  },
);
export type SendNotificationBody = Static<typeof SendNotificationBody>;

export const NotificationIdParams = Type.Object({
  projectId: ProjectParams.properties.projectId,
  notificationId: Type.String({ minLength: 1, maxLength: 128 }),
});

export const NotificationStats = Type.Object({
  targeted: Type.Integer(),
  sent: Type.Integer(),
  failed: Type.Integer(),
  unsubscribed: Type.Integer(),
  clicked: Type.Integer({ description: 'distinct devices that reported @clicked with this notification id' }),
  capped: Type.Integer({ description: "devices not sent it because of the project's frequency cap" }),
  waiting: Type.Optional(
    Type.Integer({ description: 'while some wait (local time, quiet hours, throttle): how many pushes wait' }),
  ),
  conversions: Type.Optional(
    Type.Record(Type.String(), Type.Object({ count: Type.Integer(), value: Type.Number() }), {
      description:
        'by conversion event (CONTRACTS §19): subjects credited, and the sum of their values; present once one is',
    }),
  ),
});
export type NotificationStats = Static<typeof NotificationStats>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const NotificationZones = Type.Object(
  {
    total: Type.Integer({ description: 'instants its devices wait for, one per distinct local time so far' }),
    sent: Type.Integer({
      description: 'zones each of whose devices has its outcome: sent, failed, unsubscribed or capped',
    }),
  },
  {
    description:
      "A local-time send's zones (CONTRACTS §15), the devices whose local time comes round at the same instant: how many, and how many are sent",
  },
);
export type NotificationZones = Static<typeof NotificationZones>;

export const NotificationView = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  status: Type.Enum(notificationStatuses),
  title: NullableString,
  body: Type.String(),
  url: NullableString,
  imageUrl: NullableString,
  stats: NotificationStats,
  zones: Type.Optional(NotificationZones),
  /** While pushes wait: the earliest time one of them is due. */
  waitingUntil: Type.Optional(Type.String()),
  /** The template the send's content came from, when it came from one. */
  templateId: Type.Optional(Type.String()),
  /** An experiment's variants and how it stands (CONTRACTS §19). */
  variants: Type.Optional(Type.Array(VariantView)),
  experiment: Type.Optional(ExperimentView),
  /** Echoed when set: the message options of CONTRACTS §14 and the timing of §15. */
  ...SendTimingFields,
  ...MessageOptions.properties,
});
export type NotificationView = Static<typeof NotificationView>;

export const maxNotificationsPerPage = 500;

export const ListNotificationsQuery = Type.Object(
  {
    limit: PageLimit(maxNotificationsPerPage, 50),
    // The last notification seen: its createdAt, or its id, which also pages through those created in the same
    // millisecond. Which one it is, and whether the id exists, is decided by the route.
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);

/** What one device would be shown: the content rendered with its variables, before anything is sent. */
export const PreviewNotificationBody = Type.Object(
  {
    /** Without a device, its variables render empty. */
    deviceId: Type.Optional(DeviceId),
    templateId: SendNotificationBody.properties.templateId,
    title: SendNotificationBody.properties.title,
    body: SendNotificationBody.properties.body,
    url: SendNotificationBody.properties.url,
    imageUrl: SendNotificationBody.properties.imageUrl,
    data: SendNotificationBody.properties.data,
    localizations: contentOptionFields.localizations,
  },
  {
    additionalProperties: false,
    if: { not: { required: ['templateId'] } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: { required: ['body'], errorMessage: 'is required unless templateId is given' },
  },
);
export type PreviewNotificationBody = Static<typeof PreviewNotificationBody>;

export const RenderedContent = Type.Object({
  title: NullableString,
  body: Type.String(),
  url: NullableString,
  imageUrl: NullableString,
  /** The localization the device got (CONTRACTS §14); absent when it gets the message's own content. */
  language: Type.Optional(Type.String()),
});
export type RenderedContent = Static<typeof RenderedContent>;
