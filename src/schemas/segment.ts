import { Type, type Static } from 'typebox';
import { conditionOps, EventDataCondition } from './event-conditions.ts';
import { TagKey } from './tags.ts';
import { maxEventTypeLength } from './events.ts';

export const maxSegmentConditions = 20;
export const maxWhereConditions = 10;
export const maxWithinDays = 365;

export const countOps = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;
export type CountOp = (typeof countOps)[number];

/** `{"tag": "plan", "op": "eq", "value": "pro"}`: compiled to a filter on the device field tags.<tag>. */
export const TagCondition = Type.Object(
  {
    tag: TagKey,
    op: Type.Enum(conditionOps, { errorMessage: `must be one of ${conditionOps.join(', ')}` }),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type TagCondition = Static<typeof TagCondition>;

/** How often an event happened for the device or its user in the last withinDays days, counting only events matching where. */
export const EventCondition = Type.Object(
  {
    event: Type.String({
      minLength: 1,
      maxLength: maxEventTypeLength,
      errorMessage: `must be an event type of 1 to ${maxEventTypeLength} characters`,
    }),
    withinDays: Type.Integer({
      minimum: 1,
      maximum: maxWithinDays,
      errorMessage: `must be a whole number of days from 1 to ${maxWithinDays}`,
    }),
    count: Type.Object(
      {
        op: Type.Enum(countOps, { errorMessage: `must be one of ${countOps.join(', ')}` }),
        value: Type.Integer({
          minimum: 0,
          maximum: Number.MAX_SAFE_INTEGER,
          errorMessage: 'must be a whole number, 0 or more',
        }),
      },
      { additionalProperties: false },
    ),
    where: Type.Optional(
      Type.Array(EventDataCondition, {
        maxItems: maxWhereConditions,
        errorMessage: `must be an array of at most ${maxWhereConditions} conditions`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventCondition = Static<typeof EventCondition>;

export type SegmentCondition = TagCondition | EventCondition;

export const segmentMatches = ['all', 'any'] as const;

/**
 * Conditions are checked one by one in the segment store (parseSegmentConditions), not by a union here:
 * a union's errors fold into one message for the whole condition, while a customer needs the field (/conditions/2/op).
 */
export const SegmentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    match: Type.Enum(segmentMatches, { errorMessage: 'must be all or any' }),
    conditions: Type.Array(
      Type.Object(
        {},
        { additionalProperties: true, errorMessage: 'must be a tag condition or an event condition object' },
      ),
      {
        maxItems: maxSegmentConditions,
        errorMessage: `must be an array of at most ${maxSegmentConditions} conditions`,
      },
    ),
  },
  { additionalProperties: false },
);
export type SegmentBody = Static<typeof SegmentBody>;

/** A segment's definition without its name: what a preview of an unsaved segment takes. */
export const SegmentDefinition = Type.Object(
  { match: SegmentBody.properties.match, conditions: SegmentBody.properties.conditions },
  { additionalProperties: false },
);
export type SegmentDefinition = Static<typeof SegmentDefinition>;

export const SegmentView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  match: Type.Enum(segmentMatches),
  conditions: Type.Array(Type.Union([TagCondition, EventCondition])),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type SegmentView = Static<typeof SegmentView>;

export const SegmentPreview = Type.Object({ count: Type.Integer(), sample: Type.Array(Type.String()) });
export type SegmentPreview = Static<typeof SegmentPreview>;
