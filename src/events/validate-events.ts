import { bodyPartErrors } from '../schemas/validation.ts';
import { ReportedEventData, ServerEvent, type EventError, type IngestedEvent } from '../schemas/events.ts';
import { isReservedEventType } from '../schemas/automatic-events.ts';

type Verdict = { event: IngestedEvent } | { code: string; message: string };

/** The code a schema failure of each field answers with (CONTRACTS §5); anything else is the event's shape. */
const fieldCodes: Record<string, string> = {
  type: 'invalid_type',
  subjectType: 'invalid_subject',
  subjectId: 'invalid_subject',
};
/** When several fields fail, the one reported is the first of these. */
const codeOrder = ['invalid_event', 'invalid_type', 'invalid_subject'];

function schemaProblem(raw: unknown): { code: string; message: string } | null {
  const problems = bodyPartErrors(ServerEvent, raw, '').map((detail) => {
    const field = detail.path.split('/')[1];
    const code = (field !== undefined && fieldCodes[field]) || 'invalid_event';
    return { code, message: field === undefined ? `an event ${detail.message}` : `${field} ${detail.message}` };
  });
  problems.sort((a, b) => codeOrder.indexOf(a.code) - codeOrder.indexOf(b.code));
  return problems[0] ?? null;
}

/** The entry of data a detail's path points into, as a message names it: "data.price" for /price and /price/3. */
function dataFieldOf(path: string): string {
  const key = path.split('/')[1];
  return key === undefined ? 'data' : `data.${key.replace(/~1/g, '/').replace(/~0/g, '~')}`;
}

/** Checks one event sent to the server API (CONTRACTS §5); the reserved @ types are the SDK's alone. */
export function validateServerEvent(raw: unknown): Verdict {
  const problem = schemaProblem(raw);
  if (problem) return problem;
  const { type, subjectType, subjectId, data = {} } = raw as ServerEvent;
  if (isReservedEventType(type)) {
    return {
      code: 'reserved_type',
      message: `types starting with @ are reserved for automatic events; "${type}" cannot be sent here`,
    };
  }
  const dataProblems = bodyPartErrors(ReportedEventData, data, '').map(
    (detail) => `${dataFieldOf(detail.path)} ${detail.message}`,
  );
  if (dataProblems.length > 0) return { code: 'invalid_data', message: dataProblems.join('; ') };
  return { event: { type, subjectType, subjectId, data: data as Record<string, unknown> } };
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
