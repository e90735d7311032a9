import type { FastifyRequest } from 'fastify';
import type { PageBoundary } from '../infra/newest-first-page.ts';
import { parseRequestTime } from '../schemas/request-formats.ts';
import type { ErrorDetail } from '../errors.ts';
import { fieldsOf } from '../schemas/validation.ts';
import { assertRequestPasses } from './invalid-request-details.ts';

/**
 * A list's `before` (undefined when absent): a time stands for itself, where the list takes times; anything else
 * names the last item seen, found by `lookUp`, and is a 400 when there is no such item (`what` says what it must be
 * the id of). For a route that attaches its schema failure: `before` is read even when another parameter failed, so
 * that one 400 names every offending parameter (CONTRACTS §1).
 */
export async function pageBoundary(
  request: FastifyRequest,
  what: string,
  lookUp: (id: string) => Promise<PageBoundary | null>,
  takesTimes = true,
): Promise<PageBoundary | undefined> {
  const { before } = fieldsOf(request.query);
  let boundary: PageBoundary | null | undefined;
  if (typeof before === 'string') {
    const time = takesTimes ? parseRequestTime(before) : null;
    boundary = time ? { time } : await lookUp(before);
  }
  const message = takesTimes
    ? `must be the id of ${what} or an ISO 8601 time with a time zone, in the years 0001 to 9999`
    : `must be the id of ${what}`;
  const errors: ErrorDetail[] = boundary === null ? [{ path: '/query/before', message }] : [];
  assertRequestPasses(request, errors, 'The query is not valid; see details for each parameter.');
  return boundary ?? undefined;
}
