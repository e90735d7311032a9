import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors.ts';
import type { KeyOwner } from '../keys/key-cache.ts';
import { planLimits } from '../plans/plans.ts';
import type { SlidingWindowLimiter } from './sliding-window.ts';

/** Applies the project's plan limit to one server API call, with the RateLimit-* headers on every answer. */
export async function enforcePlanRateLimit(
  limiter: SlidingWindowLimiter,
  owner: KeyOwner,
  reply: FastifyReply,
): Promise<void> {
  const limit = planLimits[owner.plan].requestsPerMinute;
  if (limit === null) return;
  const decision = await limiter.take(owner.projectId, limit);
  const headers = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  };
  reply.headers(headers);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      `The ${owner.plan} plan allows ${limit} API requests per minute; retry after ${decision.resetSeconds} s.`,
      {
        headers: { ...headers, 'retry-after': String(decision.resetSeconds) },
      },
    );
  }
}
