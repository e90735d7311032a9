import type { CountDeps } from '../events/pending-counts.ts';
import type { SegmentDocument } from '../models/segment.ts';
import type { SegmentCondition, TagCondition } from '../schemas/segment.ts';
import { operatorFilter } from '../conditions/operator-filter.ts';
import { isTagCondition } from './segment-conditions.ts';
import { eventConditionFilter } from './event-condition-filter.ts';

/** Tag keys follow CONTRACTS §4 (no leading $, no dot, no NUL), so tags.<key> is a safe field path. */
export function tagConditionFilter(condition: TagCondition): object {
  return { [`tags.${condition.tag}`]: operatorFilter(condition.op, condition.value) };
}

function conditionFilter(
  deps: CountDeps,
  projectId: string,
  condition: SegmentCondition,
  now: Date,
): Promise<object> | object {
  return isTagCondition(condition)
    ? tagConditionFilter(condition)
    : eventConditionFilter(deps, projectId, condition, now);
}

/**
 * A segment's conditions as one clause on devices: tag conditions become operators on tags.<key>, event conditions
 * a list of device _ids computed from the event aggregates. An empty clause ({}) matches every device: a segment
 * without conditions is the whole project.
 */
export async function segmentClause(
  deps: CountDeps,
  segment: Pick<SegmentDocument, 'projectId' | 'match' | 'conditions'>,
  now = new Date(),
): Promise<object> {
  const conditions = segment.conditions;
  if (conditions.length === 0) return {};
  const clauses = await Promise.all(
    conditions.map((condition) => conditionFilter(deps, segment.projectId, condition, now)),
  );
  if (clauses.length === 1) return clauses[0]!;
  return { [segment.match === 'all' ? '$and' : '$or']: clauses };
}

/** One query on devices for the union of the segments' clauses: subscribed devices only, none listed twice. */
export function subscribedDevicesFilter(projectId: string, clauses: object[]): Record<string, unknown> {
  const matchesAll = clauses.some((clause) => Object.keys(clause).length === 0);
  const union = matchesAll || clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0]! : { $or: clauses };
  return { projectId, isSubscribed: true, ...union };
}
