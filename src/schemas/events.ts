import { Type, type Static } from 'typebox';
import { DeviceId, PageLimit, KeyedBy } from './common.ts';
import { UserId } from './device.ts';
import { Id, someTextPattern } from './text.ts';
import { TagKey } from './tags.ts';
import { unstorableTimeMessage } from './iso-time.ts';
import { sdkAutomaticEvents } from './automatic-events.ts';

export const subjectTypes = ['device', 'user'] as const;
export type SubjectType = (typeof subjectTypes)[number];
export const eventTypeSources = ['auto', 'manual'] as const;

export const maxEventsPerRequest = 500;
export const maxEventTypeLength = 64;
export const maxSubjectIdLength = 256;
export const maxRecentEvents = 500;
export const maxEventDataKeys = 100;
export const maxEventArrayItems = 100;

/**
 * Only the envelope is checked by the schema; each event is checked on its own (partitionEvents),
 * so that the valid events of a request are accepted next to the invalid ones (CONTRACTS §5).
 */
export const ReportEventsBody = Type.Object(
  {
    events: Type.Array(Type.Unknown(), {
      minItems: 1,
      maxItems: maxEventsPerRequest,
      errorMessage: `must be an array of 1 to ${maxEventsPerRequest} events`,
    }),
  },
  { additionalProperties: false },
);
export type ReportEventsBody = Static<typeof ReportEventsBody>;

export const EventError = Type.Object({ index: Type.Integer(), code: Type.String(), message: Type.String() });
export type EventError = Static<typeof EventError>;

export const ReportEventsResult = Type.Object({ success: Type.Integer(), error: Type.Array(EventError) });
export type ReportEventsResult = Static<typeof ReportEventsResult>;

/** Event data as stored and listed. */
export const EventData = KeyedBy(Type.Unknown());
export type EventData = Static<typeof EventData>;

const finiteNumber = { minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE };

/**
 * One value of event data as a request may send it. Each rule is a keyword that applies to one type only (format to
 * strings, the bounds to numbers, the item rules to arrays), each in a schema of its own, so that a refusal says which
 * rule the value broke. An ISO time is stored as a time, so one no store can hold is refused, alone or in an array.
 */
const ReportedEventValue = Type.Unsafe<string | number | boolean | null | string[] | number[]>({
  type: ['string', 'number', 'boolean', 'null', 'array'],
  errorMessage: 'is a nested object; data values must be strings, numbers, booleans, null, times or arrays',
  allOf: [
    { format: 'storable-time', errorMessage: unstorableTimeMessage },
    { ...finiteNumber, errorMessage: 'must be a finite number' },
    { maxItems: maxEventArrayItems, errorMessage: `is an array of more than ${maxEventArrayItems} elements` },
    {
      anyOf: [{ items: { type: 'string' } }, { items: { type: 'number', ...finiteNumber } }],
      errorMessage: 'must be an array whose elements are all strings or all finite numbers',
    },
    { items: { format: 'storable-time', errorMessage: `holds a time: ${unstorableTimeMessage}` } },
  ],
});

/** Event data as a request sends it: its keys become MongoDB field paths, as tag keys do. */
export const ReportedEventData = KeyedBy(ReportedEventValue, {
  propertyNames: TagKey,
  maxProperties: maxEventDataKeys,
  errorMessage: `must be an object of at most ${maxEventDataKeys} entries`,
});
export type ReportedEventData = Static<typeof ReportedEventData>;

export const EventType = Type.String({
  minLength: 1,
  maxLength: maxEventTypeLength,
  // A blank type would list as an empty entry of the catalog, and no condition could name it.
  pattern: someTextPattern,
  errorMessage: `must be an event type of 1 to ${maxEventTypeLength} characters, not blank, without NUL`,
});

/**
 * One event of the server API's /events and /track. Its data is checked apart, against ReportedEventData, so that
 * bad data is answered with its own code (invalid_data, CONTRACTS §5).
 */
export const ServerEvent = Type.Object(
  {
    type: EventType,
    subjectType: Type.Enum(subjectTypes, { errorMessage: `must be one of ${subjectTypes.join(', ')}` }),
    subjectId: Id(maxSubjectIdLength),
    data: Type.Optional(Type.Unknown()),
  },
  {
    additionalProperties: false,
    errorMessage: 'must be an object',
    // A device's events count for the device of that id, which only a device id can name.
    if: { required: ['subjectType'], properties: { subjectType: { const: 'device' } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: { properties: { subjectId: DeviceId } },
  },
);
export type ServerEvent = Static<typeof ServerEvent>;

/** An accepted event: its data checked and defaulted to an empty object. */
export type IngestedEvent = Omit<ServerEvent, 'data'> & { data: EventData };

/** The event that triggered a journey's send, bound as entry_event. */
export type EntryEvent = Pick<IngestedEvent, 'type' | 'data'>;

const sdkEventTypes = [...sdkAutomaticEvents];

/**
 * A custom type (one that does not start with @, not blank, without NUL), or one of the automatic events an SDK
 * reports itself.
 */
const SdkEventType = Type.Union(
  [
    Type.String({
      minLength: 1,
      maxLength: maxEventTypeLength,
      pattern: '^(?:[^@\\s\\u0000]|\\s+[^\\s\\u0000])[^\\u0000]*$',
    }),
    Type.Enum(sdkEventTypes),
  ],
  {
    errorMessage: `must be a custom event type of 1 to ${maxEventTypeLength} characters, not blank, without NUL and not starting with @, or one of ${sdkEventTypes.join(', ')}`,
  },
);

/** trackEvent from the SDK: the subject is the device in the path. */
export const TrackDeviceEventBody = Type.Object(
  { type: SdkEventType, data: Type.Optional(ReportedEventData) },
  { additionalProperties: false },
);
export type TrackDeviceEventBody = Static<typeof TrackDeviceEventBody>;

export const AddEventTypeBody = Type.Object({ type: EventType }, { additionalProperties: false });

export const EventTypeView = Type.Object({
  type: Type.String(),
  source: Type.Enum(eventTypeSources),
  createdAt: Type.String({ format: 'date-time' }),
  /** Events of the type received today and the 29 UTC days before. */
  last30Days: Type.Integer({ minimum: 0 }),
  /** The last UTC day (YYYY-MM-DD) of those 30 with an event of the type, or null. */
  lastSeenOn: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
});
export type EventTypeView = Static<typeof EventTypeView>;
/** A catalog entry as stored, before its figures are added. */
export type StoredEventType = Omit<EventTypeView, 'last30Days' | 'lastSeenOn'>;

export const RecentEventsQuery = Type.Object(
  {
    userId: Type.Optional(UserId),
    deviceId: Type.Optional(DeviceId),
    type: Type.Optional(EventType),
    limit: PageLimit(maxRecentEvents, 50),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type RecentEventsQuery = Static<typeof RecentEventsQuery>;

export const EventView = Type.Object({
  id: Type.String(),
  type: Type.String(),
  subjectType: Type.String(),
  subjectId: Type.String(),
  data: EventData,
  receivedAt: Type.String({ format: 'date-time' }),
});
export type EventView = Static<typeof EventView>;
