import { Type, type Static } from 'typebox';

export const maxHistoryLimit = 1000;

export const HistoryQuery = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: maxHistoryLimit,
    default: 100,
    errorMessage: `must be a whole number from 1 to ${maxHistoryLimit}`,
  }),
  before: Type.Optional(
    Type.String({ format: 'date-time', errorMessage: 'must be an ISO 8601 time with a time zone' }),
  ),
});
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
