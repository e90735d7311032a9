import { Type, type Static, type TSchema } from 'typebox';
import { EventDataCondition } from './event-conditions.ts';
import { EventType } from './events.ts';
import { EventCondition, maxWhereConditions, segmentMatches, TagCondition } from './segment.ts';
import { ClockTime } from './project-settings.ts';
import { TagChanges } from './tags.ts';
import { SendNotificationBody } from './notification.ts';

export const maxStepWaitSeconds = 31_536_000;
export const maxEventWaitSeconds = 2_592_000;
export const stepIdPattern = '^[A-Za-z0-9_-]{1,64}$';

export const StepId = Type.String({
  pattern: stepIdPattern,
  errorMessage: 'must be 1 to 64 characters of A-Z a-z 0-9 _ -',
});
/** Where a traveller goes next: a step id, or "exit". */
export const StepTarget = Type.String({
  pattern: stepIdPattern,
  errorMessage: 'must be a step id of this journey or "exit"',
});

export const DataWhere = Type.Array(EventDataCondition, {
  maxItems: maxWhereConditions,
  errorMessage: `must be an array of at most ${maxWhereConditions} conditions`,
});
/** Data fields of an event that must equal those of the event that entered the traveller. */
export const SameAs = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
  maxItems: 10,
  errorMessage: 'must be an array of at most 10 data field names',
});

const step = <Type extends string, Props extends Record<string, TSchema>>(
  type: Type,
  props: Props,
  options: object = {},
) =>
  Type.Object(
    { id: StepId, type: Type.Literal(type), next: Type.Optional(StepTarget), ...props },
    { additionalProperties: false, ...options },
  );

export const WaitStep = step(
  'wait',
  {
    seconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxStepWaitSeconds,
        errorMessage: `must be a whole number of seconds from 1 to ${maxStepWaitSeconds}`,
      }),
    ),
    untilLocalTime: Type.Optional(ClockTime),
  },
  {
    oneOf: [{ required: ['seconds'] }, { required: ['untilLocalTime'] }],
    errorMessage: 'takes either seconds or untilLocalTime',
  },
);

const { targetType, targetIds, sendAt, variants, experiment, ...sendFields } = SendNotificationBody.properties;
/**
 * The content and options of a send (CONTRACTS §6, §14, §15), under the send's own rules. Not an experiment's variants
 * (§19): a journey tests content with a `split` step, whose paths report as variants do.
 */
const { allOf: sendRules } = SendNotificationBody as unknown as { allOf: object[] };
export const PushStep = step('push', sendFields, { allOf: sendRules });

export const WaitForEventStep = step('waitForEvent', {
  event: EventType,
  where: Type.Optional(DataWhere),
  sameAs: Type.Optional(SameAs),
  timeoutSeconds: Type.Integer({
    minimum: 1,
    maximum: maxEventWaitSeconds,
    errorMessage: `must be a whole number of seconds from 1 to ${maxEventWaitSeconds}`,
  }),
  onEvent: StepTarget,
  onTimeout: StepTarget,
});

export const ClickedCondition = Type.Object({ clicked: StepId }, { additionalProperties: false });
export const ConvertedCondition = Type.Object({ converted: EventType }, { additionalProperties: false });
export const BranchCondition = Type.Union([TagCondition, EventCondition, ClickedCondition, ConvertedCondition], {
  errorMessage:
    'must be a tag condition, an event condition, {"clicked": "<push step id>"} or {"converted": "<event>"}',
});
export type BranchCondition = Static<typeof BranchCondition>;

export const BranchStep = step('branch', {
  match: Type.Enum(segmentMatches, { errorMessage: `must be one of ${segmentMatches.join(', ')}` }),
  conditions: Type.Array(BranchCondition, {
    minItems: 1,
    maxItems: 20,
    errorMessage: 'must be an array of 1 to 20 conditions',
  }),
  onTrue: StepTarget,
  onFalse: StepTarget,
});

export const SplitPath = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, errorMessage: 'must be 1 to 64 characters' }),
    percent: Type.Integer({ minimum: 1, maximum: 100, errorMessage: 'must be a whole number from 1 to 100' }),
    next: StepTarget,
  },
  { additionalProperties: false },
);
export const SplitStep = step('split', {
  paths: Type.Array(SplitPath, { minItems: 2, maxItems: 10, errorMessage: 'must be an array of 2 to 10 paths' }),
});

export const SetTagsStep = step('setTags', { tags: TagChanges });
export const WebhookStep = step('webhook', {});

export const stepSchemas = {
  wait: WaitStep,
  push: PushStep,
  waitForEvent: WaitForEventStep,
  branch: BranchStep,
  split: SplitStep,
  setTags: SetTagsStep,
  webhook: WebhookStep,
};
export type StepType = keyof typeof stepSchemas;
export const stepTypes = Object.keys(stepSchemas) as StepType[];

export const JourneyStep = Type.Union([
  WaitStep,
  PushStep,
  WaitForEventStep,
  BranchStep,
  SplitStep,
  SetTagsStep,
  WebhookStep,
]);
export type JourneyStep = Static<typeof JourneyStep>;
export type StepOf<T extends StepType> = Static<(typeof stepSchemas)[T]>;
