import type { QueueDefinition } from './queue-definition.ts';

export const journeyStepsJobName = 'run-due-steps';
/** Every second, a run of the journeys' due steps: a step runs within about a second of its time when workers keep up. */
export const journeyStepsEveryMs = 1000;

/**
 * Waiting travellers are data (their records' due times), not jobs: one scheduled job a second takes the due ones in
 * batches. When one run outlasts the second, the next job goes to another worker, which claims other travellers.
 */
export const journeyStepsQueue: QueueDefinition<'journey-steps'> = {
  name: 'journey-steps',
  defaultConcurrency: 2,
  async schedule({ queues }) {
    await queues.journeySteps.upsertJobScheduler(
      journeyStepsJobName,
      { every: journeyStepsEveryMs },
      { name: journeyStepsJobName, opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } },
    );
  },
};
