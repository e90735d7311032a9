import { publishWebhookEvents } from '../../webhooks/publish-events.ts';
import { nextOf, type StepRun, sameResult } from './step-context.ts';

/**
 * A `journey.step` event (CONTRACTS §17) per traveller, keyed by its visit and place in it: a rerun publishes the
 * same events, which the webhook queue takes once.
 */
export const runWebhook: StepRun<'webhook'> = async (context, step, travellers) => {
  const timestamp = context.now.toISOString();
  await publishWebhookEvents(
    context.deps,
    context.projectId,
    travellers.map((traveller) => ({
      key: `journey.step\n${traveller._id}\n${traveller.seq}`,
      event: {
        type: 'journey.step',
        timestamp,
        data: {
          journeyId: context.journeyId,
          stepId: step.id,
          subjectType: traveller.subjectType,
          subjectId: traveller.subjectId,
          entryEvent: traveller.entryEvent,
        },
      },
    })),
  );
  return sameResult(travellers, { next: nextOf(context.version, step), outcome: { published: true } });
};
