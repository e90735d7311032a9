import { Type, type Static } from 'typebox';
import { EventDataCondition } from './event-conditions.ts';
import { EventType } from './events.ts';
import { maxWhereConditions } from './segment.ts';
import { notBlank } from './common.ts';
import { Id, NullableText } from './text.ts';
import { DeliveryOptOuts } from './send-timing.ts';
import { contentOptionFields, deliveryOptionFields, isSilent, MessageOptions } from './message-options.ts';

export const maxDelaySeconds = 30 * 24 * 3600;

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

/** An automated message: when an event of the trigger's type (and data) is ingested, its subject's devices get it. */
export const JourneyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    trigger: JourneyTrigger,
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
  },
  { additionalProperties: false },
);
export type JourneyBody = Static<typeof JourneyBody>;

const bodyRequired = 'is required unless templateId is given';

/**
 * The content comes from the template or from the journey's own fields, so body is required unless templateId is
 * given (a null templateId is none). The journey store checks this rule, not the route: a route schema would answer
 * before the trigger's condition values and the Liquid are checked, while one answer names every offending field.
 */
export const JourneyContentRule = {
  if: { anyOf: [{ required: ['templateId'], properties: { templateId: { type: 'string' } } }, isSilent] },
  else: {
    required: ['body'],
    properties: { body: { type: 'string', errorMessage: bodyRequired } },
    errorMessage: bodyRequired,
    // Not blank while it can send: a journey stored with a blank body before this rule can still be paused.
    if: { required: ['active'], properties: { active: { const: false } } },
    else: { properties: { body: notBlank } },
  },
};

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const JourneyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  trigger: Type.Object({ event: Type.String(), where: Type.Array(EventDataCondition) }),
  delaySeconds: Type.Integer(),
  templateId: NullableString,
  title: NullableString,
  body: NullableString,
  url: NullableString,
  imageUrl: NullableString,
  active: Type.Boolean(),
  ...MessageOptions.properties,
  createdAt: Type.String(),
  updatedAt: Type.String(),
  /** Shown when set (CONTRACTS §15). */
  ...DeliveryOptOuts,
});
export type JourneyView = Static<typeof JourneyView>;
