import type { PageBoundary } from '../infra/newest-first-page.ts';
import { isRequestTime } from '../schemas/request-formats.ts';
import { invalidFields } from './api-error.ts';

/**
 * A list's `before`: a time stands for itself; anything else names the last item seen, found by `lookUp`, and is a
 * 400 when there is no such item (`what` says what it must be the id of).
 */
export async function pageBoundary(
  before: string,
  what: string,
  lookUp: (id: string) => Promise<PageBoundary | null>,
): Promise<PageBoundary> {
  if (isRequestTime(before)) return { time: new Date(before) };
  const boundary = await lookUp(before);
  if (boundary) return boundary;
  throw invalidFields([
    {
      path: '/query/before',
      message: `must be the id of ${what} or an ISO 8601 time with a time zone, in the years 0001 to 9999`,
    },
  ]);
}
