import { Type, type Static } from 'typebox';
import { PageLimit } from './common.ts';

export const maxHistoryLimit = 1000;

export const HistoryQuery = Type.Object(
  {
    limit: PageLimit(maxHistoryLimit, 100),
    // The last entry seen: its sentAt, or its notification's id, which also pages through the entries sent in the
    // same millisecond. Which one it is, and whether the entry exists, is decided by the route.
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
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
