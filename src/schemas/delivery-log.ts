import { Type, type Static } from 'typebox';
import { PageLimit } from './common.ts';
import { NotificationIdParams } from './notification.ts';

/** A push's outcome for one device; capped and expired come with the fatigue controls and message options. */
export const deliveryOutcomes = ['sent', 'failed', 'unsubscribed', 'capped', 'expired'] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];

/** What the log can be filtered by: an outcome, or the pushes still waiting (local time, quiet hours, throttle). */
const loggedOutcomes = [...deliveryOutcomes, 'waiting'] as const;

export const DeliveryLogQuery = Type.Object(
  {
    outcome: Type.Optional(Type.Enum(loggedOutcomes, { errorMessage: `must be one of ${loggedOutcomes.join(', ')}` })),
    limit: PageLimit(1000, 100),
    /** The last device id seen: the page starts after it. */
    after: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    /** csv: the whole log (outcome still filters) as a CSV stream, for a spreadsheet; limit and after do not apply. */
    format: Type.Optional(Type.Enum(['json', 'csv'], { errorMessage: 'must be json or csv' })),
  },
  { additionalProperties: false },
);
export type DeliveryLogQuery = Static<typeof DeliveryLogQuery>;

export const DeliveryLogParams = NotificationIdParams;

export const DeliveryView = Type.Object({
  deviceId: Type.String(),
  platform: Type.String(),
  outcome: Type.String(),
  reason: Type.Optional(Type.String()),
  at: Type.String(),
});
export type DeliveryView = Static<typeof DeliveryView>;

const OutcomeCounts = Type.Object({
  sent: Type.Integer(),
  failed: Type.Integer(),
  unsubscribed: Type.Integer(),
  capped: Type.Integer(),
  expired: Type.Integer(),
});

export const DeliverySummary = Type.Object({
  byPlatform: Type.Array(Type.Object({ platform: Type.String(), ...OutcomeCounts.properties })),
  /** The reasons of the failed and unsubscribed devices (and the others with one), most frequent first. */
  reasons: Type.Array(Type.Object({ outcome: Type.String(), reason: Type.String(), count: Type.Integer() })),
});
export type DeliverySummary = Static<typeof DeliverySummary>;
