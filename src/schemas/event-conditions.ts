import { Type, type Static } from 'typebox';
import { maxTagKeyLength, tagKeyMessage, tagKeyPattern } from './tags.ts';

export const conditionOps = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'exists', 'notExists'] as const;
export type ConditionOp = (typeof conditionOps)[number];

/** A condition on event data, as in a segment's event condition `where` (CONTRACTS §7). */
export const EventDataCondition = Type.Object(
  {
    field: Type.String({
      minLength: 1,
      maxLength: maxTagKeyLength,
      pattern: tagKeyPattern,
      errorMessage: tagKeyMessage,
    }),
    op: Type.Enum(conditionOps, { errorMessage: `must be one of ${conditionOps.join(', ')}` }),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type EventDataCondition = Static<typeof EventDataCondition>;
