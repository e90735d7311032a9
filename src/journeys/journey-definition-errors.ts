import type { ErrorDetail } from '../errors.ts';
import { bodyPartErrors, escapePointer, fieldsOf } from '../schemas/validation.ts';
import { JourneyDefinition } from '../schemas/journey.ts';
import { stepSchemas, type StepType } from '../schemas/journey-steps.ts';
import { whereValueErrors } from '../conditions/condition-values.ts';
import { contentSyntaxErrors } from '../rendering/message-content.ts';
import { optionContentErrors } from '../rendering/option-content-errors.ts';
import { reservedDataKeyProblem } from '../gateways/reserved-data-keys.ts';
import { journeyGraphErrors } from './journey-graph.ts';
import { notBlank } from '../schemas/common.ts';
import { isLegacyJourney, legacyAsDefinition, legacyErrorPath, mixedFormErrors } from './legacy-journey.ts';

const { steps: _steps, ...topLevel } = JourneyDefinition.properties;
// Unknown fields are the route schema's to name; here only what the top level holds.
const TopLevel = {
  ...JourneyDefinition,
  properties: topLevel,
  required: ['name', 'entry'],
  additionalProperties: true,
};

const prefixed = (details: ErrorDetail[], prefix: string) =>
  details.map((detail) => ({ ...detail, path: prefix + detail.path }));

const whereErrors = (value: unknown, path: string) =>
  Array.isArray(fieldsOf(value).where) ? whereValueErrors(fieldsOf(value).where as unknown[], `${path}/where`) : [];

/** A push step's rules past its schema, as a send's: data keys a gateway reserves, Liquid syntax. */
function pushStepErrors(step: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(fieldsOf(step.data))) {
    const problem = reservedDataKeyProblem(key);
    if (problem) details.push({ path: `/data/${escapePointer(key)}`, message: problem });
  }
  if (step.templateId === undefined) details.push(...contentSyntaxErrors(step));
  details.push(...optionContentErrors(step));
  return details;
}

function branchErrors(step: Record<string, unknown>, pushIds: Set<string>): ErrorDetail[] {
  const conditions = Array.isArray(step.conditions) ? step.conditions : [];
  return conditions.flatMap((condition, index) => {
    const { clicked } = fieldsOf(condition);
    const path = `/conditions/${index}`;
    if (typeof clicked === 'string' && !pushIds.has(clicked))
      return [{ path: `${path}/clicked`, message: 'must name a push step of this journey' }];
    return whereErrors(condition, path);
  });
}

function stepErrors(step: unknown, index: number, pushIds: Set<string>): ErrorDetail[] {
  const fields = fieldsOf(step);
  const schema = stepSchemas[fields.type as StepType];
  if (!schema) return [];
  const own = [
    ...bodyPartErrors(schema, step, ''),
    ...(fields.type === 'push' ? pushStepErrors(fields) : []),
    ...(fields.type === 'waitForEvent' ? whereErrors(fields, '') : []),
    ...(fields.type === 'branch' ? branchErrors(fields, pushIds) : []),
  ];
  if (fields.type === 'split' && Array.isArray(fields.paths)) {
    const total = fields.paths.reduce((sum: number, path) => sum + Number(fieldsOf(path).percent ?? 0), 0);
    if (total !== 100) own.push({ path: '/paths', message: `must have percents summing to 100, not ${total}` });
  }
  return prefixed(own, `/steps/${index}`);
}

/** A blank body, stored before that rule, does not keep a journey that cannot send (paused, draft) from being saved. */
const blankBodyAllowed = (fields: Record<string, unknown>) => (detail: ErrorDetail) =>
  fields.status === undefined || fields.status === 'active' || detail.message !== notBlank.errorMessage;

/** Every rule of a journey in the form of CONTRACTS §18 that a single read of the body can check. */
export function stepsDefinitionErrors(input: unknown): ErrorDetail[] {
  const fields = fieldsOf(input);
  const steps = Array.isArray(fields.steps) ? fields.steps : [];
  const pushIds = new Set(
    steps.filter((step) => fieldsOf(step).type === 'push').map((step) => String(fieldsOf(step).id)),
  );
  const exits = Array.isArray(fields.exit) ? fields.exit : [];
  return [
    ...bodyPartErrors(TopLevel, fields, ''),
    ...(Array.isArray(fields.steps) ? [] : [{ path: '/steps', message: 'is required: 1 to 50 steps' }]),
    ...whereErrors(fields.entry, '/entry'),
    ...exits.flatMap((rule, index) => whereErrors(rule, `/exit/${index}`)),
    ...steps.flatMap((step, index) => stepErrors(step, index, pushIds)),
    ...journeyGraphErrors(steps),
  ].filter(blankBodyAllowed(fields));
}

/** The checks past the route schema for either form; the first form's are named at its own fields. */
export function journeyDefinitionErrors(input: unknown): ErrorDetail[] {
  if (!isLegacyJourney(input)) return [...mixedFormErrors(input), ...stepsDefinitionErrors(input)];
  return stepsDefinitionErrors(legacyAsDefinition(input)).map(legacyErrorPath);
}
