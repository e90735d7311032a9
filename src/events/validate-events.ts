import { subjectTypes } from '../models/event.ts';
import { maxEventTypeLength, maxSubjectIdLength, type EventError } from '../schemas/events.ts';
import type { IngestedEvent } from './ingest-job.ts';
import { eventDataProblem } from './event-data.ts';
import { isReservedEventType } from './automatic-events.ts';

const eventFields = new Set(['type', 'subjectType', 'subjectId', 'data']);

type Verdict = { event: IngestedEvent } | { code: string; message: string };

export const eventTypeProblem = (type: unknown): string | null =>
  typeof type === 'string' && type.length >= 1 && type.length <= maxEventTypeLength
    ? null
    : `type must be a string of 1 to ${maxEventTypeLength} characters`;

/** Checks one event sent to the server API (CONTRACTS §5); the reserved @ types are the SDK's alone. */
export function validateServerEvent(raw: unknown): Verdict {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { code: 'invalid_event', message: 'an event must be an object' };
  const unknownField = Object.keys(raw).find((key) => !eventFields.has(key));
  if (unknownField !== undefined)
    return {
      code: 'invalid_event',
      message: `"${unknownField}" is not a field of an event (type, subjectType, subjectId, data)`,
    };
  const { type, subjectType, subjectId, data = {} } = raw as Record<string, unknown>;
  const typeProblem = eventTypeProblem(type);
  if (typeProblem) return { code: 'invalid_type', message: typeProblem };
  if (isReservedEventType(type as string)) {
    return {
      code: 'reserved_type',
      message: `types starting with @ are reserved for automatic events; "${String(type)}" cannot be sent here`,
    };
  }
  if (!(subjectTypes as readonly unknown[]).includes(subjectType))
    return { code: 'invalid_subject', message: `subjectType must be one of ${subjectTypes.join(', ')}` };
  if (typeof subjectId !== 'string' || subjectId.length < 1 || subjectId.length > maxSubjectIdLength) {
    return { code: 'invalid_subject', message: `subjectId must be a string of 1 to ${maxSubjectIdLength} characters` };
  }
  const dataProblem = eventDataProblem(data);
  if (dataProblem) return { code: 'invalid_data', message: dataProblem };
  return {
    event: {
      type: type as string,
      subjectType: subjectType as IngestedEvent['subjectType'],
      subjectId,
      data: data as Record<string, unknown>,
    },
  };
}

/** Valid events are accepted even when others in the same request are not; each refusal names its index. */
export function partitionEvents(rawEvents: unknown[]): { accepted: IngestedEvent[]; errors: EventError[] } {
  const accepted: IngestedEvent[] = [];
  const errors: EventError[] = [];
  rawEvents.forEach((raw, index) => {
    const verdict = validateServerEvent(raw);
    if ('event' in verdict) accepted.push(verdict.event);
    else errors.push({ index, ...verdict });
  });
  return { accepted, errors };
}
