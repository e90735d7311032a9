import { Type, type Static } from 'typebox';
import { ProjectParams } from './common.ts';
import { subjectTypes } from './events.ts';

/** How a visit left: its steps done, an exit rule, the journey deleted, or a step that kept failing for it. */
export const endReasons = ['completed', 'exit_rule', 'journey_deleted', 'step_failed'] as const;
export type EndReason = (typeof endReasons)[number];

export const TravellerParams = Type.Object({
  projectId: ProjectParams.properties.projectId,
  id: Type.String({ minLength: 1, maxLength: 128 }),
  subjectType: Type.Enum(subjectTypes, { errorMessage: `must be one of ${subjectTypes.join(', ')}` }),
  subjectId: Type.String({ minLength: 1, maxLength: 256 }),
});

export const TravellerView = Type.Object({
  visit: Type.Integer(),
  version: Type.Integer({ description: 'the journey version it travels' }),
  enteredAt: Type.String(),
  entryEvent: Type.Object({ type: Type.String(), data: Type.Record(Type.String(), Type.Unknown()) }),
  passed: Type.Array(
    Type.Object({
      stepId: Type.String(),
      at: Type.String(),
      outcome: Type.Record(Type.String(), Type.Unknown(), {
        description: 'the split path, the branch result, the notification a push went out in, the event heard...',
      }),
    }),
  ),
  state: Type.Enum(['travelling', 'paused', 'left'] as const),
  at: Type.Optional(Type.String({ description: 'the step it waits in, or runs next' })),
  until: Type.Optional(Type.String({ description: 'when that step is due: the end of its wait' })),
  leftAt: Type.Optional(Type.String()),
  leftBecause: Type.Optional(Type.Enum(endReasons)),
});
export type TravellerView = Static<typeof TravellerView>;
