import type { StepResult, StepRun } from './step-context.ts';

/**
 * First run: the traveller starts listening, from now on (an earlier event does not count), until the timeout, when
 * this step runs again and sends it to onTimeout. An awaited event moves it to onEvent from the ingest worker
 * (hearEvent), in a write conditional on it still listening here.
 */
export const runWaitForEvent: StepRun<'waitForEvent'> = async (context, step, travellers) => {
  const results = new Map<string, StepResult>();
  for (const traveller of travellers) {
    if (traveller.listening?.stepId === step.id) {
      results.set(traveller._id, { next: step.onTimeout, outcome: { timedOut: true } });
      continue;
    }
    results.set(traveller._id, {
      next: step.id,
      dueAt: new Date(context.now.getTime() + step.timeoutSeconds * 1000),
      listening: { stepId: step.id, event: step.event, since: context.now },
      waitingIn: step.id,
      outcome: null,
    });
  }
  return results;
};
