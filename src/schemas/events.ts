import { Type, type Static } from 'typebox';
import { DeviceId, PageLimit, KeyedBy } from './common.ts';
import { UserId } from './device.ts';

export const subjectTypes = ['device', 'user'] as const;
export type SubjectType = (typeof subjectTypes)[number];
export const eventTypeSources = ['auto', 'manual'] as const;

export const maxEventsPerRequest = 500;
export const maxEventTypeLength = 64;
export const maxSubjectIdLength = 256;
export const maxRecentEvents = 500;

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

/** Event data as accepted and stored; its values and limits are checked apart (eventDataProblems). */
export const EventData = KeyedBy(Type.Unknown());
export type EventData = Static<typeof EventData>;

export const EventType = Type.String({
  minLength: 1,
  maxLength: maxEventTypeLength,
  // A blank type would list as an empty entry of the catalog, and no condition could name it.
  pattern: '\\S',
  errorMessage: `must be an event type of 1 to ${maxEventTypeLength} characters, not blank`,
});

/**
 * One event of the server API's /events and /track. Its data is checked apart (eventDataProblems): values,
 * times and their limits are rules a schema does not express.
 */
export const ServerEvent = Type.Object(
  {
    type: EventType,
    subjectType: Type.Enum(subjectTypes, { errorMessage: `must be one of ${subjectTypes.join(', ')}` }),
    subjectId: Type.String({
      minLength: 1,
      maxLength: maxSubjectIdLength,
      errorMessage: `must be a string of 1 to ${maxSubjectIdLength} characters`,
    }),
    data: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, errorMessage: 'must be an object' },
);
export type ServerEvent = Static<typeof ServerEvent>;

/** An accepted event: its data checked and defaulted to an empty object. */
export type IngestedEvent = Omit<ServerEvent, 'data'> & { data: EventData };

/** The event that triggered a journey's send, bound as entry_event. */
export type EntryEvent = Pick<IngestedEvent, 'type' | 'data'>;

/** trackEvent from the SDK: the subject is the device in the path. */
export const TrackDeviceEventBody = Type.Object(
  { type: EventType, data: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);
export type TrackDeviceEventBody = Static<typeof TrackDeviceEventBody>;

export const AddEventTypeBody = Type.Object({ type: EventType }, { additionalProperties: false });

export const EventTypeView = Type.Object({
  type: Type.String(),
  source: Type.Enum(eventTypeSources),
  createdAt: Type.String({ format: 'date-time' }),
});
export type EventTypeView = Static<typeof EventTypeView>;

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
