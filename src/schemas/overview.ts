import { Type, type Static } from 'typebox';

export const OverviewQuery = Type.Object(
  {
    days: Type.Integer({ minimum: 1, maximum: 90, default: 30, errorMessage: 'must be a whole number from 1 to 90' }),
  },
  { additionalProperties: false },
);
export type OverviewQuery = Static<typeof OverviewQuery>;

export const OverviewDay = Type.Object({
  /** The UTC day, YYYY-MM-DD. */
  day: Type.String(),
  /** Devices subscribed at the end of the day (now, for today). */
  subscribed: Type.Integer(),
  /** Pushes sent that day, and devices that clicked a push that day. */
  sent: Type.Integer(),
  clicked: Type.Integer(),
  conversions: Type.Integer({
    description:
      "conversions credited to a push that day, of every one of the project's conversion events (CONTRACTS §19)",
  }),
});
export type OverviewDay = Static<typeof OverviewDay>;

export const OverviewView = Type.Object({ days: Type.Array(OverviewDay) });
export type OverviewView = Static<typeof OverviewView>;
