import type { App } from '../http/app-types.ts';
import type { AppContext } from '../app-context.ts';

export function registerHealthRoutes(app: App, context: AppContext): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ data: { status: 'ok' } }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const [redis, mongo] = await Promise.all([
      context.redis.ping().then(
        () => true,
        () => false,
      ),
      context.mongo.db
        ? context.mongo.db.command({ ping: 1 }).then(
            () => true,
            () => false,
          )
        : false,
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
