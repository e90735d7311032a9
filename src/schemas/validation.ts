import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { ErrorDetail } from '../errors.ts';
import { requestFormats } from './request-formats.ts';

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: false,
    useDefaults: true,
    removeAdditional: false,
    ...options,
  });
  addFormats.default(ajv);
  for (const [name, format] of Object.entries(requestFormats)) ajv.addFormat(name, format);
  return ajv;
}

// JSON bodies are validated as sent: "5" is not a number. Query strings and path parameters are text by nature.
export const bodyAjv = createAjv({ coerceTypes: false });
export const textAjv = createAjv({ coerceTypes: true });

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function detailFor(error: ErrorObject, prefix: string): ErrorDetail {
  const params = error.params as Record<string, unknown>;
  const schema = error.parentSchema as
    | { type?: string; errorMessage?: string; propertyNames?: { errorMessage?: string } }
    | undefined;
  const custom = error.keyword === 'propertyNames' ? schema?.propertyNames?.errorMessage : schema?.errorMessage;
  let path = prefix + error.instancePath;
  if (error.keyword === 'required') {
    // An object's errorMessage says what the object must be; a bare required rule's says when the field is needed.
    const message = (schema?.type === 'object' ? undefined : custom) ?? 'is required';
    return { path: `${path}/${escapePointer(String(params.missingProperty))}`, message };
  }
  if (error.keyword === 'additionalProperties') {
    return { path: `${path}/${escapePointer(String(params.additionalProperty))}`, message: 'is not a known field' };
  }
  if (error.keyword === 'propertyNames') path += `/${escapePointer(String(params.propertyName))}`;
  return { path, message: custom ?? error.message ?? 'is invalid' };
}

/**
 * One detail per offending field. A union (anyOf) reports every branch that failed; those branch errors are folded
 * into the union's own error, whose schema carries an errorMessage a customer can act on.
 */
export function validationDetails(errors: ErrorObject[], prefix = ''): ErrorDetail[] {
  const unionPaths = new Set(errors.filter((error) => error.keyword === 'anyOf').map((error) => error.schemaPath));
  const propertyNameFailures = new Set(
    errors.filter((error) => error.keyword === 'propertyNames').map((error) => error.schemaPath),
  );
  const kept = errors.filter((error) => {
    // An if/then failure is reported again by the keyword inside "then", which names the field.
    if (error.keyword === 'if') return false;
    for (const unionPath of unionPaths) if (error.schemaPath.startsWith(`${unionPath}/`)) return false;
    for (const namesPath of propertyNameFailures) if (error.schemaPath.startsWith(`${namesPath}/`)) return false;
    return true;
  });
  const seen = new Set<string>();
  return kept
    .map((error) => detailFor(error, prefix))
    .filter((detail) => {
      const key = `${detail.path}\u0000${detail.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const compiledParts = new WeakMap<object, ReturnType<Ajv['compile']>>();

/** Validates a part of a body the route schema leaves open (e.g. one of several condition kinds), as the body is. */
export function bodyPartErrors(schema: object, value: unknown, prefix: string): ErrorDetail[] {
  let validate = compiledParts.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    compiledParts.set(schema, validate);
  }
  return validate(value) ? [] : validationDetails(validate.errors ?? [], prefix);
}

/** The fields of a request body that may have failed its schema: none when it is not an object. */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
