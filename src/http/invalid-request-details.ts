import type { FastifyError, FastifyRequest } from 'fastify';
import { invalidFields, invalidRequest, type ErrorDetail } from '../errors.ts';
import { validationDetails } from '../schemas/validation.ts';

const partPrefixes: Record<string, string> = { body: '', querystring: '/query', params: '/path', headers: '/headers' };

/** The details of a schema validation failure, with paths into the part of the request that failed. */
export function schemaErrorDetails(error: FastifyError): ErrorDetail[] {
  const prefix = partPrefixes[error.validationContext ?? 'body'] ?? '';
  return validationDetails(error.validation as never, prefix);
}

/**
 * For a route whose checks go past its schema (plan limits, Liquid, condition values) and that attaches its schema
 * failure (attachValidation): a failed schema is answered here with the details of those checks too, run on the
 * fields they can read, so that one 400 names every offending field (CONTRACTS §1). A path the schema already named
 * is not named again.
 */
export function assertRequestValid(request: FastifyRequest, pastSchemaErrors: () => ErrorDetail[]): void {
  const failure = request.validationError as FastifyError | undefined;
  if (!failure) return;
  const details = schemaErrorDetails(failure);
  const named = new Set(details.map((detail) => detail.path));
  throw invalidFields([...details, ...pastSchemaErrors().filter((detail) => !named.has(detail.path))]);
}

/** For a route whose own checks are only these: computed once, and on a body the schema took they are its 400. */
export function assertRequestPasses(request: FastifyRequest, checkErrors: ErrorDetail[], message: string): void {
  assertRequestValid(request, () => checkErrors);
  if (checkErrors.length > 0) throw invalidRequest(message, checkErrors);
}
