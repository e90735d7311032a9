import type { FastifyRequest } from 'fastify';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { Models } from '../models/index.ts';

/** How long a project's allowed origins are trusted in memory: a change through the CLI applies within this. */
const originsTtlMs = 30_000;
const maxCachedProjects = 1000;

/**
 * What the SDK sends and must read: the client key, JSON bodies, the key that makes an event's retries one event, and
 * the rate-limit answers it backs off on.
 */
const corsBase = {
  methods: ['GET', 'PUT', 'PATCH', 'POST'],
  allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
  exposedHeaders: ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
  // Browsers cap it (Chromium at 2 hours); it spares a page a preflight before every call.
  maxAge: 7200,
  // An OPTIONS without Origin or Access-Control-Request-Method is no browser's preflight, but it is no bad input
  // either: it is answered like one, where strict mode would answer a text/plain 400 outside the error format.
  strictPreflight: false,
} satisfies Omit<FastifyCorsOptions, 'origin'>;

/**
 * CORS for the SDK endpoints (CONTRACTS §3): any origin, since the client key is public by design, unless the
 * project lists its origins (npm run project:origins); then only those. Unknown projects get any origin, so a
 * browser can read the 401 or 403 the request earns.
 */
export function sdkCorsOptions(models: Models): (request: FastifyRequest) => Promise<FastifyCorsOptions> {
  const cache = new Map<string, { origins: string[]; until: number }>();

  async function allowedOrigins(projectId: string): Promise<string[]> {
    const cached = cache.get(projectId);
    if (cached && cached.until > Date.now()) return cached.origins;
    const project = await models.Project.findById(projectId, { allowedOrigins: 1 }).lean();
    const origins = project?.allowedOrigins ?? [];
    cache.delete(projectId);
    cache.set(projectId, { origins, until: Date.now() + originsTtlMs });
    // The map is in insertion order, so the oldest entry goes.
    if (cache.size > maxCachedProjects) cache.delete(cache.keys().next().value!);
    return origins;
  }

  return async (request) => {
    const { projectId } = request.params as { projectId?: string };
    const origins = projectId === undefined ? [] : await allowedOrigins(projectId);
    return { ...corsBase, origin: origins.length === 0 ? '*' : origins };
  };
}
