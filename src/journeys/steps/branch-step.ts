import { deviceInSegment } from '../../segments/device-in-segment.ts';
import type { SegmentCondition } from '../../schemas/segment.ts';
import type { BranchCondition, StepOf } from '../../schemas/journey-steps.ts';
import { subjectDevices } from '../subject-devices.ts';
import { redisKeys } from '../../infra/redis-keys.ts';
import type { StepContext, StepResult, StepRun, Traveller } from './step-context.ts';

const isSegmentCondition = (condition: BranchCondition): condition is SegmentCondition =>
  !('clicked' in condition) && !('converted' in condition);

/** The pushes the traveller's visit got, from one push step or from all. */
const visitPushes = (traveller: Traveller, pushStepId?: string) =>
  traveller.passed
    .filter((passed) => (pushStepId ?? passed.stepId) === passed.stepId)
    .flatMap((passed) => (typeof passed.outcome.notificationId === 'string' ? [passed.outcome.notificationId] : []));

/** Whether a device of the traveller clicked the push its visit got from that push step. */
async function clicked(context: StepContext, traveller: Traveller, deviceIds: string[], pushStepId: string) {
  const notificationIds = visitPushes(traveller, pushStepId);
  if (notificationIds.length === 0 || deviceIds.length === 0) return false;
  const ids = notificationIds.flatMap((notificationId) => deviceIds.map((deviceId) => `${notificationId}:${deviceId}`));
  return !!(await context.deps.models.NotificationClick.exists({ _id: { $in: ids } }));
}

/**
 * Whether a push of this visit was credited with a conversion event of the traveller, or of one of its devices: the
 * credit marks attribution keeps for the conversion's window (CONTRACTS §19).
 */
async function converted(context: StepContext, traveller: Traveller, deviceIds: string[], event: string) {
  const { creditedPrefix } = redisKeys.conversions(context.deps.config.queuePrefix, traveller.projectId);
  const subjects = [`${traveller.subjectType}:${traveller.subjectId}`, ...deviceIds.map((id) => `device:${id}`)];
  const marks = visitPushes(traveller).flatMap((notificationId) =>
    subjects.map((subject) => `${creditedPrefix}${notificationId}\n${subject}\n${event}`),
  );
  return marks.length > 0 && (await context.deps.redis.exists(...marks)) > 0;
}

/**
 * Tag and event conditions hold as a segment's would for the device, or for any device of the user; `clicked` asks
 * whether the traveller clicked the push of that step in this visit, `converted` whether a push of this visit was
 * credited with that conversion.
 */
async function holds(context: StepContext, step: StepOf<'branch'>, traveller: Traveller): Promise<boolean> {
  const { models } = context.deps;
  const devices = await subjectDevices(models, traveller.projectId, traveller.subjectType, traveller.subjectId);
  const segmentConditions = step.conditions.filter(isSegmentCondition);
  const results: boolean[] = [];
  if (segmentConditions.length > 0) {
    const segment = { match: step.match, conditions: segmentConditions };
    let inSegment = false;
    for (const device of devices)
      if (!inSegment) inSegment = await deviceInSegment(context.deps, device, segment, context.now);
    results.push(inSegment);
  }
  const deviceIds = devices.map((device) => device.deviceId);
  for (const condition of step.conditions) {
    if ('clicked' in condition) results.push(await clicked(context, traveller, deviceIds, condition.clicked));
    if ('converted' in condition) results.push(await converted(context, traveller, deviceIds, condition.converted));
  }
  return step.match === 'all' ? results.every(Boolean) : results.some(Boolean);
}

export const runBranch: StepRun<'branch'> = async (context, step, travellers) => {
  const results = new Map<string, StepResult>();
  for (const traveller of travellers) {
    const result = await holds(context, step, traveller);
    results.set(traveller._id, { next: result ? step.onTrue : step.onFalse, outcome: { result } });
  }
  return results;
};
