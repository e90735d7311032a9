import type { App } from '../http/app-types.ts';
import type { AppContext } from '../app-context.ts';

/**
 * How long /readyz waits for each store. A store that is connected but does not answer (a frozen server) would hold
 * the probe for the driver's own time-outs, 5 s for Redis and 13 s for MongoDB, past a load balancer's probe time-out.
 */
export const readinessTimeoutMs = 2000;

/** Whether the check answered in time. */
function answersWithin(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), readinessTimeoutMs);
  });
  const answered = check().then(
    () => true,
    () => false,
  );
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

export function registerHealthRoutes(app: App, context: AppContext): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ data: { status: 'ok' } }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const { db } = context.mongo;
    const [redis, mongo] = await Promise.all([
      answersWithin(() => context.redis.ping()),
      db ? answersWithin(() => db.command({ ping: 1 })) : false,
    ]);
    if (redis && mongo) return { data: { status: 'ready', redis: 'up', mongodb: 'up' } };
    return reply.code(503).send({
      error: {
        code: 'unavailable',
        message: `Not ready: redis is ${redis ? 'up' : 'down'}, mongodb is ${mongo ? 'up' : 'down'}.`,
      },
    });
  });
}
