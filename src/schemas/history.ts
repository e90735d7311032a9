import { Type, type Static } from 'typebox';
import { PageLimit, IsoTime } from './common.ts';

export const maxHistoryLimit = 1000;

export const HistoryQuery = Type.Object(
  {
    limit: PageLimit(maxHistoryLimit, 100),
    before: Type.Optional(IsoTime()),
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
