import type { ErrorDetail } from '../errors.ts';
import { fieldsOf } from '../schemas/validation.ts';
import { legacyFieldNames, type JourneyBody, type JourneyDefinition } from '../schemas/journey.ts';

export const legacyWaitId = 'delay';
export const legacyPushId = 'message';

/** Whether a body is in the first form of a journey: a trigger and one message. */
export const isLegacyJourney = (input: unknown): boolean => 'trigger' in fieldsOf(input);

/**
 * The first form as steps (CONTRACTS §18): its trigger is the entry, its delay a `wait`, its message a `push`;
 * `active: false` is a paused journey. Fields of the wrong type are carried as they are, for the step rules to name.
 */
export function legacyAsDefinition(input: unknown): Record<string, unknown> {
  const { name, trigger, delaySeconds, active, ...rest } = fieldsOf(input);
  const push: Record<string, unknown> = { id: legacyPushId, type: 'push' };
  for (const [field, value] of Object.entries(rest)) if (value !== null) push[field] = value;
  // The first form had no data: its silent push carries none, where a send's must.
  if (push.silent === true) push.data = {};
  const wait = typeof delaySeconds === 'number' && delaySeconds > 0;
  return {
    name,
    status: active === false ? 'paused' : 'active',
    entry: trigger,
    steps: [...(wait ? [{ id: legacyWaitId, type: 'wait', seconds: delaySeconds }] : []), push],
  };
}

/** A detail about the steps made from the first form, named at the first form's own field. */
export function legacyErrorPath(detail: ErrorDetail): ErrorDetail {
  const path = detail.path
    .replace(/^\/entry/, '/trigger')
    .replace(/^\/steps\/0\/seconds$/, '/delaySeconds')
    .replace(/^\/steps\/\d+/, '');
  return { ...detail, path };
}

/** A body mixing both forms names the first form's fields it should not carry. */
export function mixedFormErrors(input: unknown): ErrorDetail[] {
  const fields = fieldsOf(input);
  if (isLegacyJourney(input)) return [];
  return legacyFieldNames
    .filter((name) => fields[name] !== undefined)
    .map((name) => ({
      path: `/${name}`,
      message: 'belongs to a step: a journey with entry and steps sets it on a push step',
    }));
}

/** The definition a body asks for, in the form of CONTRACTS §18 whichever form it came in. */
export function definitionOf(input: JourneyBody): JourneyDefinition {
  const definition = (isLegacyJourney(input) ? legacyAsDefinition(input) : input) as JourneyDefinition;
  return {
    name: definition.name,
    status: definition.status ?? 'active',
    entry: { event: definition.entry.event, where: definition.entry.where ?? [] },
    audience: definition.audience,
    reentry: definition.reentry ?? 'afterExit',
    exit: definition.exit ?? [],
    steps: definition.steps,
  };
}
