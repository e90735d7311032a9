import { Type, type Static } from 'typebox';
import { EventDataCondition } from './event-conditions.ts';
import { EventType } from './events.ts';
import { maxWhereConditions } from './segment.ts';
import { Id, NullableText } from './text.ts';
import { DeliveryOptOuts } from './send-timing.ts';
import { contentOptionFields, deliveryOptionFields } from './message-options.ts';
import { DataWhere, JourneyStep, SameAs, stepTypes } from './journey-steps.ts';

export const maxDelaySeconds = 30 * 24 * 3600;
export const maxSteps = 50;
export const journeyStatuses = ['draft', 'active', 'paused'] as const;
export type JourneyStatus = (typeof journeyStatuses)[number];
export const minReentrySeconds = 600;
export const maxReentrySeconds = 31_536_000;

const JourneyTrigger = Type.Object(
  {
    event: EventType,
    where: Type.Optional(
      Type.Array(EventDataCondition, {
        maxItems: maxWhereConditions,
        errorMessage: `must be an array of at most ${maxWhereConditions} conditions`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const JourneyEntry = Type.Object(
  { event: EventType, where: Type.Optional(DataWhere) },
  { additionalProperties: false },
);
export const ExitRule = Type.Object(
  { event: EventType, where: Type.Optional(DataWhere), sameAs: Type.Optional(SameAs) },
  { additionalProperties: false },
);
export type ExitRule = Static<typeof ExitRule>;
export const Reentry = Type.Union(
  [
    Type.Enum(['never', 'afterExit'] as const),
    Type.Object(
      { afterSeconds: Type.Integer({ minimum: minReentrySeconds, maximum: maxReentrySeconds }) },
      { additionalProperties: false },
    ),
  ],
  {
    errorMessage: `must be "never", "afterExit" or {"afterSeconds": ${minReentrySeconds} to ${maxReentrySeconds}}`,
  },
);
export type Reentry = Static<typeof Reentry>;

/** A journey as CONTRACTS §18 defines it; the store checks each step against its type's schema. */
export const JourneyDefinition = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    status: Type.Optional(Type.Enum(journeyStatuses, { errorMessage: `must be one of ${journeyStatuses.join(', ')}` })),
    entry: JourneyEntry,
    audience: Type.Optional(Type.Object({ segmentId: Id(128) }, { additionalProperties: false })),
    reentry: Type.Optional(Reentry),
    exit: Type.Optional(Type.Array(ExitRule, { maxItems: 10, errorMessage: 'must be an array of at most 10 rules' })),
    steps: Type.Array(JourneyStep, {
      minItems: 1,
      maxItems: maxSteps,
      errorMessage: `must be an array of 1 to ${maxSteps} steps`,
    }),
  },
  { additionalProperties: false },
);
export type JourneyDefinition = Static<typeof JourneyDefinition>;

/** The first form of a journey (one event, one message after a delay), still taken and shown as steps. */
export const legacyJourneyFields = {
  trigger: Type.Optional(JourneyTrigger),
  delaySeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: maxDelaySeconds,
      errorMessage: `must be a whole number of seconds from 0 to ${maxDelaySeconds}`,
    }),
  ),
  templateId: Type.Optional(
    Type.Union([Id(128), Type.Null()], { errorMessage: 'must be a template id of 1 to 128 characters, or null' }),
  ),
  title: NullableText(1024),
  body: NullableText(4096),
  url: NullableText(2048),
  imageUrl: NullableText(2048),
  active: Type.Optional(Type.Boolean()),
  ...DeliveryOptOuts,
  ...contentOptionFields,
  ...deliveryOptionFields,
};
export const legacyFieldNames = Object.keys(legacyJourneyFields);

/**
 * The request: either form. A step that is none of the types is named whole here; the store checks each step against
 * its own type's schema too, so that the 400 also names the field inside it (`/steps/3/onTimeout`).
 */
export const JourneyBody = Type.Object(
  {
    ...JourneyDefinition.properties,
    entry: Type.Optional(JourneyEntry),
    name: JourneyDefinition.properties.name,
    steps: Type.Optional(
      Type.Array(
        Type.Union(JourneyStep.anyOf, {
          errorMessage: `must be a step: an id and a type (${stepTypes.join(', ')}) with that type's fields`,
        }),
        { minItems: 1, maxItems: maxSteps, errorMessage: `must be an array of 1 to ${maxSteps} steps` },
      ),
    ),
    ...legacyJourneyFields,
  },
  { additionalProperties: false },
);
export type JourneyBody = Static<typeof JourneyBody>;

export const StepStats = Type.Object({
  entered: Type.Integer(),
  waiting: Type.Integer(),
  sent: Type.Optional(Type.Integer()),
  failed: Type.Optional(Type.Integer()),
  clicked: Type.Optional(Type.Integer()),
  conversions: Type.Integer(),
});
export const JourneyStats = Type.Object({
  entered: Type.Integer(),
  active: Type.Integer(),
  completed: Type.Integer(),
  exited: Type.Integer(),
  steps: Type.Record(Type.String(), StepStats),
});
export type JourneyStats = Static<typeof JourneyStats>;

export const JourneyView = Type.Object({
  id: Type.String(),
  ...JourneyDefinition.properties,
  // Shown as stored: a step stored before a rule of today must still be shown, to be corrected.
  steps: Type.Array(Type.Object({ id: Type.String(), type: Type.Enum(stepTypes) }, { additionalProperties: true })),
  status: Type.Enum(journeyStatuses),
  reentry: Reentry,
  exit: Type.Array(ExitRule),
  version: Type.Integer({ description: 'raised by every PUT; travellers finish on the version they entered' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  stats: Type.Optional(JourneyStats),
});
export type JourneyView = Static<typeof JourneyView>;
