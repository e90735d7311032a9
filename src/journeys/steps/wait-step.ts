import { nextLocalTime } from '../../targets/local-clock.ts';
import { nextOf, type StepContext, type StepRun, type StepResult, type Traveller } from './step-context.ts';
import { subjectDevices } from '../subject-devices.ts';

/**
 * The traveller's zone (CONTRACTS §18): the device's timezone; for a user, that of its most recently registered
 * device; else the project's defaultTimezone.
 */
async function travellerZone(context: StepContext, traveller: Traveller): Promise<string> {
  const devices = await subjectDevices(
    context.deps.models,
    context.projectId,
    traveller.subjectType,
    traveller.subjectId,
  );
  const newest = devices
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .find((device) => device.timezone);
  if (newest?.timezone) return newest.timezone;
  return context.defaultZone(context.projectId);
}

/** The next step is due after the wait; the traveller waits in this step meanwhile, held by nothing but its record. */
export const runWait: StepRun<'wait'> = async (context, step, travellers) => {
  const results = new Map<string, StepResult>();
  const next = nextOf(context.version, step);
  for (const traveller of travellers) {
    const from = context.now.getTime();
    const due =
      step.untilLocalTime === undefined
        ? from + step.seconds! * 1000
        : nextLocalTime(from, await travellerZone(context, traveller), step.untilLocalTime);
    const dueAt = new Date(due);
    results.set(traveller._id, { next, dueAt, waitingIn: step.id, outcome: { until: dueAt.toISOString() } });
  }
  return results;
};
