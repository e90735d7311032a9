import type { StepType } from '../../schemas/journey-steps.ts';
import type { StepRun } from './step-context.ts';
import { runWait } from './wait-step.ts';
import { runPush } from './push-step.ts';
import { runWaitForEvent } from './wait-for-event-step.ts';
import { runBranch } from './branch-step.ts';
import { runSplit } from './split-step.ts';
import { runSetTags } from './set-tags-step.ts';
import { runWebhook } from './webhook-step.ts';

/** What each step type does for a batch of travellers at it. */
export const stepRuns: { [Type in StepType]: StepRun<Type> } = {
  wait: runWait,
  push: runPush,
  waitForEvent: runWaitForEvent,
  branch: runBranch,
  split: runSplit,
  setTags: runSetTags,
  webhook: runWebhook,
};
