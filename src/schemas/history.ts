import { Type, type Static } from 'typebox';
import { IsoTime, PageLimit } from './common.ts';

export const maxHistoryLimit = 1000;

export const HistoryQuery = Type.Object(
  {
    limit: PageLimit(maxHistoryLimit, 100),
    // The last entry seen: its sentAt, or its notification's id, which also pages through the entries sent in the
    // same millisecond. A text that is not a time is an id; whether its entry exists is decided by the route.
    before: Type.Optional(
      Type.Union([IsoTime(), Type.String({ minLength: 1, maxLength: 256 })], {
        description: "The sentAt of the last entry seen, or the id of its notification in this device's history",
        errorMessage:
          "must be the id of a notification in this device's history or an ISO 8601 time with a time zone, in the years 0001 to 9999",
      }),
    ),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const HistoryEntry = Type.Object({
  notification: Type.Object({
    id: Type.String(),
    createdAt: Type.String(),
    title: NullableString,
    body: Type.String(),
    url: NullableString,
    imageUrl: NullableString,
  }),
  sentAt: Type.String(),
});
export type HistoryEntry = Static<typeof HistoryEntry>;
