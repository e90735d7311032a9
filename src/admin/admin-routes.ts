import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { App } from '../http/app-types.ts';
import type { AppContext } from '../app-context.ts';
import type { IngressMetrics } from '../metrics/ingress-metrics.ts';
import { unauthorized } from '../errors.ts';
import { sendApiError } from '../http/error-handler.ts';
import { isAdminAuthorization } from './admin-auth.ts';

export const dashboardPath = '/admin/queues';

/**
 * The queue dashboard (bull-board) and /metrics, for operators only: both answer 401 without ADMIN_TOKEN as a bearer
 * token or basic-auth password, and do not exist (404) when no ADMIN_TOKEN is configured.
 */
export async function registerAdminRoutes(app: App, context: AppContext, metrics: IngressMetrics): Promise<void> {
  const adminToken = context.config.adminToken;
  if (adminToken === undefined) return;
  await app.register(async (admin) => {
    admin.addHook('onRequest', async (request, reply) => {
      if (isAdminAuthorization(request.headers.authorization, adminToken)) return;
      // The challenge makes a browser ask for the user and password, and send them with the dashboard's own API calls.
      reply.header('www-authenticate', 'Basic realm="pushengine admin", charset="UTF-8"');
      return sendApiError(
        reply,
        unauthorized('Send ADMIN_TOKEN as "Authorization: Bearer <ADMIN_TOKEN>" or as the password of user "admin".'),
      );
    });

    admin.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    });

    const board = new FastifyAdapter();
    board.setBasePath(dashboardPath);
    // @bull-board/fastify 9.10.1 carries its own copy of @bull-board/api (9.10.1) beside ours (9.10.2): the same
    // interface declared twice, which the compiler cannot unify.
    const serverAdapter = board as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'];
    createBullBoard({ queues: Object.values(context.queues).map((queue) => new BullMQAdapter(queue)), serverAdapter });
    await admin.register(board.registerPlugin(), { prefix: dashboardPath });
  });
}
