import { invalidRequest, type ErrorDetail } from '../errors.ts';
import { bodyPartErrors, fieldsOf } from '../schemas/validation.ts';
import { EventCondition, TagCondition, type SegmentCondition } from '../schemas/segment.ts';
import { tagValueErrors, whereValueErrors } from '../conditions/condition-values.ts';
import { conditionOps, type ConditionOp } from '../schemas/event-conditions.ts';

export const isTagCondition = (condition: SegmentCondition): condition is TagCondition => 'tag' in condition;

/** The schema's errors and the value checks together, so that one 400 names every offending field of a condition. */
function withValueErrors(schemaErrors: ErrorDetail[], valueErrors: ErrorDetail[]): ErrorDetail[] {
  const named = new Set(schemaErrors.map((detail) => detail.path));
  return [...schemaErrors, ...valueErrors.filter((detail) => !named.has(detail.path))];
}

function conditionErrors(raw: unknown, path: string): ErrorDetail[] {
  const fields = raw as Record<string, unknown>;
  const isTag = 'tag' in fields;
  if (isTag === 'event' in fields)
    return [{ path, message: 'must have exactly one of "tag" (a tag condition) and "event" (an event condition)' }];
  if (isTag) {
    // An unknown op is the schema's to name; its value cannot be judged.
    const valueErrors = conditionOps.includes(fields.op as ConditionOp)
      ? tagValueErrors(raw as TagCondition, path)
      : [];
    return withValueErrors(bodyPartErrors(TagCondition, raw, path), valueErrors);
  }
  const valueErrors = Array.isArray(fields.where) ? whereValueErrors(fields.where, `${path}/where`) : [];
  return withValueErrors(bodyPartErrors(EventCondition, raw, path), valueErrors);
}

function segmentConditionErrors(conditions: unknown): ErrorDetail[] {
  if (!Array.isArray(conditions)) return [];
  return conditions.flatMap((condition, index) =>
    typeof condition === 'object' && condition !== null ? conditionErrors(condition, `/conditions/${index}`) : [],
  );
}

/** Each condition's offending fields; also read on a body that failed its schema, which names what is not an object. */
export const segmentDefinitionErrors = (body: unknown): ErrorDetail[] =>
  segmentConditionErrors(fieldsOf(body).conditions);

/** The conditions as typed values, or a 400 naming each offending field, e.g. /conditions/2/op. */
export function parseSegmentConditions(conditions: object[]): SegmentCondition[] {
  const details = segmentConditionErrors(conditions);
  if (details.length > 0)
    throw invalidRequest('The segment definition is not valid; see details for each condition.', details);
  return conditions as SegmentCondition[];
}
